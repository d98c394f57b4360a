/**
 * The spec to the letter, through `netinv serve`, for every endpoint of the manifest:
 * - an unsatisfiable `Accept` is 406 on every endpoint and method, gateway-owned or forwarded;
 * - an unknown table path is 404 for every method, in every address generation;
 * - every one of those answers carries X-API-Versions-Supported, X-API-Version-Used and
 *   X-Product-Version;
 * - API_NOT_FOUND is always "Requested Resource Not Found", what was not found is in `detail`;
 * - a POST that creates a resource answers 201 (clone included, with the new snapshot's id).
 */
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ENDPOINTS, supportedVersions, type Endpoint, type Method } from '../../src/shared/manifest.js'
import { PRODUCT_VERSION } from '../../src/shared/product.js'
import { apiKey, bearer, call, discoverLab, login, newApiKey, waitForJob, type Reply } from './client.js'
import { serve, stop, tempDirs } from './process.js'

const ADMIN_PASSWORD = 'sweep-admin-password-1'
const NOT_FOUND = { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' }

/** A concrete path of a pattern: a fresh id for each parameter, a real table for `*`. */
function concrete(e: Endpoint): string {
  return e.path
    .split('/')
    .map((s) => (s === '*' ? 'inventory/devices' : s.startsWith(':') ? randomUUID() : s))
    .join('/')
}

function methodsOf(e: Endpoint): string[] {
  const methods = Object.keys(e.methods) as Method[]
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods
}

function versionHeaders(t: Test, r: Reply, what: string, supported: string, used: string): void {
  t.equal(r.headers.get('x-product-version'), PRODUCT_VERSION, `${what}: X-Product-Version`)
  t.equal(r.headers.get('x-api-versions-supported'), supported, `${what}: X-API-Versions-Supported`)
  t.equal(r.headers.get('x-api-version-used'), used, `${what}: X-API-Version-Used`)
}

t.test('every endpoint, every method, through netinv serve', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  // Every request of the sweep comes from 127.0.0.1 within a few seconds.
  const file = join(configDir, 'api.json')
  const config = JSON.parse(readFileSync(file, 'utf8')) as { rateLimit: Record<string, unknown> }
  config.rateLimit.perSecond = 100000
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o644 })
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD })
  const base = app.url
  const session = await login(base, 'admin', ADMIN_PASSWORD)
  const admin = apiKey(await newApiKey(base, session.accessToken, ['read', 'settings', 'team', 'write']))

  await t.test('an Accept no endpoint can satisfy: 406 with the three version headers', async (t) => {
    const generations: Array<[string, string, (e: Endpoint) => string]> = [
      ['/api/', 'application/xml', (e) => String(e.defaultVersion)],
      ['/api/v1/', 'application/json;q=0', () => '1'],
    ]
    let swept = 0
    for (const [prefix, accept, used] of generations) {
      for (const e of ENDPOINTS) {
        const path = `${prefix}${concrete(e)}`
        for (const method of methodsOf(e)) {
          const what = `${method} ${path} (Accept: ${accept})`
          const r = await call(base, method, path, { headers: { ...admin, accept }, ...(method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { body: {} }) })
          t.equal(r.status, 406, what)
          if (method !== 'HEAD') t.match(r.json(), { code: 'API_NOT_ACCEPTABLE', message: /^The Accept header cannot be satisfied/ }, what)
          versionHeaders(t, r, what, supportedVersions(e).join(','), used(e))
          swept++
        }
      }
    }
    t.ok(swept > 2 * ENDPOINTS.length, `${swept} requests`)
  })

  await t.test('the same endpoints answer when Accept allows them', async (t) => {
    t.equal((await call(base, 'GET', '/api/version', { headers: { accept: 'application/*' } })).status, 200)
    t.equal((await call(base, 'GET', '/api/users/me', { headers: { ...admin, accept: '*/*' } })).status, 200)
    t.equal((await call(base, 'GET', '/api/tables', { headers: { ...admin, accept: 'text/html, application/json;q=0.5' } })).status, 200)
  })

  await t.test('an unknown table path: 404 for every method, in every generation, with the version headers', async (t) => {
    for (const prefix of ['/api/', '/api/v1/', '/api/v7.x/', `/api/${PRODUCT_VERSION}/`]) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        for (const path of ['tables/no/such/thing', 'tables/no/such/description']) {
          const what = `${method} ${prefix}${path}`
          const r = await call(base, method, `${prefix}${path}`, { headers: admin, ...(method === 'GET' || method === 'HEAD' ? {} : { body: { columns: ['id'] } }) })
          t.equal(r.status, 404, what)
          // under a generation the path names a table (the 404 says which tables it may mean); /api/v7.x/ is no generation
          const table = path.slice('tables/'.length).replace(/\/description$/, '')
          const expected = prefix === '/api/v7.x/' ? NOT_FOUND : { ...NOT_FOUND, detail: `no table "${table}"; GET /api/tables lists them` }
          if (method !== 'HEAD') t.same(r.json(), expected, what)
          versionHeaders(t, r, what, '', '')
        }
      }
    }
    const wrong = await call(base, 'GET', '/api/tables/inventory/devices', { headers: admin })
    t.equal(wrong.status, 405, 'a table that exists: the method is what is wrong')
    versionHeaders(t, wrong, '405', '1', '1')
  })

  let snapshotId = ''
  await t.test('a POST that creates a resource answers 201', async (t) => {
    const user = await call(base, 'POST', '/api/users', { headers: admin, body: { username: 'sweep-user', password: 'sweep-user-password-1', scope: ['read'] } })
    t.equal(user.status, 201, 'users')
    const key = await call(base, 'POST', '/api/api-tokens', { headers: bearer(session.accessToken), body: { description: 'sweep' } })
    t.equal(key.status, 201, 'api-tokens')
    const report = await call(base, 'POST', '/api/reports', {
      headers: admin,
      body: { name: 'Telnet', apiEndpoint: '/v1/tables/inventory/devices', column: 'loginType', checks: { '30': { loginType: ['eq', 'telnet'] } } },
    })
    t.equal(report.status, 201, 'custom reports')
    snapshotId = await discoverLab(base, admin) // checks its own 201
    const cloned = await call(base, 'POST', `/api/snapshots/${snapshotId}/clone`, { headers: admin })
    t.equal(cloned.status, 201, 'snapshot clone')
    const cloneId = cloned.json<{ id: string }>().id
    t.match(cloned.json(), { success: true, id: String }, 'the body names the new snapshot')
    t.not(cloneId, snapshotId)
    t.equal((await call(base, 'GET', `/api/snapshots/${cloneId}`, { headers: admin })).status, 200, 'and it exists')
    const download = await call(base, 'GET', `/api/snapshots/${snapshotId}/download`, { headers: { ...admin, accept: 'application/x-ndjson' } })
    t.equal(download.status, 200)
    const upload = await call(base, 'POST', '/api/snapshots/upload', { headers: { ...admin, 'content-type': 'application/x-ndjson' }, body: download.text })
    t.equal(upload.status, 201, 'upload')
    await waitForJob(base, upload.json<{ jobId: string }>().jobId, admin)
    // Last: with an SNMP credential, a discovery without a profile would go to the network.
    const snmp = await call(base, 'POST', '/api/settings/snmp', { headers: admin, body: { version: '2c', community: 'sweep' } })
    t.equal(snmp.status, 201, 'SNMP credentials')
  })

  await t.test('API_NOT_FOUND: always the same message, what was not found in detail', async (t) => {
    const id = randomUUID()
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['GET', `/api/snapshots/${id}`, undefined, new RegExp(`Snapshot "${id}" not found`)],
      ['POST', `/api/snapshots/${id}/lock`, undefined, new RegExp(id)],
      ['GET', `/api/jobs/${id}`, undefined, new RegExp(`Job "${id}" not found`)],
      ['POST', '/api/tables/inventory/devices', { snapshot: id, columns: ['id'] }, new RegExp(id)],
      ['GET', `/api/reports/${id}`, undefined, /Report/],
      ['DELETE', `/api/settings/snmp/${id}`, undefined, /SNMP credential/],
      ['GET', `/api/users/${id}`, undefined, /User/],
      ['GET', `/api/api-tokens/${id}`, undefined, /API key/],
    ]
    for (const [method, path, body, detail] of cases) {
      const r = await call(base, method, path, { headers: admin, ...(body === undefined ? {} : { body }) })
      t.equal(r.status, 404, `${method} ${path}`)
      t.match(r.json(), { ...NOT_FOUND, detail }, `${method} ${path}`)
      t.equal(r.json<{ message: string }>().message, NOT_FOUND.message)
      versionHeaders(t, r, `${method} ${path}`, '1', '1')
    }
    t.same((await call(base, 'GET', '/api/nothing/here', { headers: admin })).json(), NOT_FOUND, 'no endpoint: nothing more to say')
  })

  t.equal(await stop(app), 0, 'SIGTERM exits 0')
})
