import t from 'tap'
import { readFileSync } from 'node:fs'
import { compileConfig, ConfigError } from '../../src/shared/config/index.js'

t.test('defaults fill an empty file', async (t) => {
  const c = compileConfig({})
  t.equal(c.app.accessToken.expiresIn, 1800)
  t.equal(c.app.refreshToken.expiresIn, 86400)
  t.equal(c.app.enableLocalAuthentication, true)
  t.equal(c.versioning.generations.path.sunset, '2026-02-01T00:00:00Z')
  t.ok(Object.isFrozen(c.app))
})

t.test('the shipped config/api.json is valid', async (t) => {
  t.doesNotThrow(() => compileConfig(JSON.parse(readFileSync('config/api.json', 'utf8'))))
})

function keyOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return err instanceof ConfigError ? err.key : 'not a ConfigError'
  }
  return undefined
}

t.test('bad values stop the start naming the key', async (t) => {
  t.equal(keyOf(() => compileConfig({ app: { accessToken: { expiresIn: 'soon' } } })), 'app.accessToken.expiresIn')
  t.equal(keyOf(() => compileConfig({ rateLimit: { perSecond: -1 } })), 'rateLimit.perSecond')
  t.equal(keyOf(() => compileConfig({ versioning: { generations: { path: { sunset: '2026-13-01' } } } })), 'versioning.generations.path.sunset')
  t.equal(keyOf(() => compileConfig({ app: { bogus: 1 } })), 'app.bogus')
  for (const impossible of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01 00:00:00Z']) {
    t.equal(keyOf(() => compileConfig({ versioning: { generations: { path: { sunset: impossible } } } })), 'versioning.generations.path.sunset', impossible)
  }
  t.equal(keyOf(() => compileConfig({ versioning: { generations: { path: { sunset: '2028-02-29T12:00:00+02:00' } } } })), undefined)
})
