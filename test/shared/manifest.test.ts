import t from 'tap'
import { ENDPOINTS, matchEndpoint, versionForRelease } from '../../src/shared/manifest.js'

t.test('specific paths win over wildcards', async (t) => {
  t.equal(matchEndpoint('snapshots/upload')?.endpoint.path, 'snapshots/upload')
  t.equal(matchEndpoint('snapshots/abc')?.endpoint.path, 'snapshots/:id')
  t.same(matchEndpoint('snapshots/abc/lock')?.params, { id: 'abc' })
  t.equal(matchEndpoint('tables/inventory/devices')?.rest, 'inventory/devices')
  t.equal(matchEndpoint('tables/inventory/devices/description')?.endpoint.path, 'tables/*/description')
  t.equal(matchEndpoint('tables/inventory/devices/description')?.rest, 'inventory/devices')
  t.equal(matchEndpoint('nope'), null)
  t.equal(matchEndpoint('snapshots//lock'), null)
  t.equal(matchEndpoint(''), null)
})

t.test('auth/token: releases before 6.1 use version 1, later ones version 2', async (t) => {
  const e = ENDPOINTS.find((x) => x.path === 'auth/token')!
  t.equal(versionForRelease(e, '5.0'), 1)
  t.equal(versionForRelease(e, '6.0'), 1)
  t.equal(versionForRelease(e, '6.1'), 2)
  t.equal(versionForRelease(e, '7.5'), 2)
})

t.test('every endpoint default version is a supported version', async (t) => {
  for (const e of ENDPOINTS) {
    t.ok(e.versions.some((v) => v.version === e.defaultVersion), e.path)
    t.ok(Object.keys(e.methods).length > 0, e.path)
  }
})
