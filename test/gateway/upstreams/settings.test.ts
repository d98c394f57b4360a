import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileConfig, ConfigError } from '../../../src/shared/config/index.js'
import { resolveUpstreams, type UpstreamSources } from '../../../src/gateway/upstreams/settings.js'

const dir = mkdtempSync(join(tmpdir(), 'netinv-upstreams-'))
const keyFile = join(dir, 'legacy-key')
writeFileSync(keyFile, 'service-key-123\n')
const badFile = join(dir, 'two-lines')
writeFileSync(badFile, 'a\nb\n')

const sources: UpstreamSources = { inventoryUrl: 'http://inventory:8081', internalSecret: 'x'.repeat(32), readFiles: true }
const resolve = (upstreams: Record<string, unknown>, s: UpstreamSources = sources, more: Record<string, unknown> = {}) => resolveUpstreams(compileConfig({ upstreams, ...more }), s)

function keyOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    return err instanceof ConfigError ? `${err.key}: ${err.message}` : `not a ConfigError: ${(err as Error).message}`
  }
  return 'no error'
}

t.test('netinv’s inventory: from the environment, header versioning, internal identity, /readyz', async (t) => {
  const inv = resolve({}).get('inventory')!
  t.equal(inv.url.href, 'http://inventory:8081/')
  t.same([inv.versioning, inv.identity, inv.healthPath], ['header', { mode: 'internal', secret: 'x'.repeat(32) }, '/readyz'])
  t.equal(resolve({}, { ...sources, inventoryUrl: undefined }).size, 0, 'no INVENTORY_URL: no inventory')
  const tuned = resolve({ inventory: { timeoutMs: 5000 } }).get('inventory')!
  t.same([tuned.url.host, tuned.timeoutMs, tuned.connectTimeoutMs], ['inventory:8081', 5000, 2000], 'api.json may tune it; the rest from `upstream`')
})

t.test('an upstream with a service credential, a base path and its own timeouts', async (t) => {
  const up = resolve({ legacy: { url: 'http://legacy:8080/base/', versioning: 'path', release: '6.0', identity: { mode: 'credential', header: 'X-API-Token', valueFile: keyFile }, maxSockets: 8 } }).get('legacy')!
  t.same(up.identity, { mode: 'credential', header: 'x-api-token', value: 'service-key-123' }, 'the file’s last line break is not part of the value')
  t.same([up.base, up.apiPrefix, up.maxSockets], ['/base', '/base/api/', 8])
  t.ok(up.headers.request.has('x-api-token') && up.headers.request.has('authorization'), 'the client’s credentials never pass')
  t.ok(up.headers.response.has('set-cookie') && up.headers.response.has('www-authenticate'), 'nor does the upstream’s session come back')
  const passthrough = resolve({ legacy: { url: 'http://legacy:8080', identity: { mode: 'passthrough' } } }).get('legacy')!
  t.notOk(passthrough.headers.request.has('authorization'), 'passthrough: the client’s credentials go through')
  t.ok(passthrough.headers.request.has('x-netinv-internal') === false && passthrough.headers.request.has('x-forwarded-for'), 'forwarding headers are ours')
})

t.test('HTTPS: the CA, client certificate and server name; the pool is shared while they stay the same', async (t) => {
  const ca = join(dir, 'ca.pem')
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
  const a = resolve({ legacy: { url: 'https://legacy.example', identity: { mode: 'passthrough' }, tls: { caFile: ca, serverName: 'api.example' } } }).get('legacy')!
  t.ok(a.tls?.ca?.toString().includes('BEGIN CERTIFICATE'))
  t.equal(a.tls?.servername, 'api.example')
  const b = resolve({ legacy: { url: 'https://legacy.example', identity: { mode: 'passthrough' }, tls: { caFile: ca, serverName: 'api.example' }, timeoutMs: 5 } }).get('legacy')!
  t.equal(a.poolKey, b.poolKey, 'a timeout is not a connection setting')
  const c = resolve({ legacy: { url: 'https://legacy.example', identity: { mode: 'passthrough' } } }).get('legacy')!
  t.not(a.poolKey, c.poolKey)
})

t.test('refused, naming the key', async (t) => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['no URL', () => resolve({ legacy: { identity: { mode: 'passthrough' } } }), /^upstreams\.legacy\.url: .*is required/],
    ['inventory without a URL anywhere', () => resolve({ inventory: {} }, { ...sources, inventoryUrl: undefined }), /upstreams\.inventory\.url: .*INVENTORY_URL is not set/],
    ['credentials in the URL', () => resolve({ legacy: { url: 'http://u:p@legacy', identity: { mode: 'passthrough' } } }), /must not hold credentials/],
    ['TLS on http', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'passthrough' }, tls: { caFile: keyFile } } }), /upstreams\.legacy\.tls: .*the URL is http:\/\//],
    ['a certificate without its key', () => resolve({ legacy: { url: 'https://legacy', identity: { mode: 'passthrough' }, tls: { certFile: keyFile } } }), /certFile and keyFile go together/],
    ['an unreadable CA', () => resolve({ legacy: { url: 'https://legacy', identity: { mode: 'passthrough' }, tls: { caFile: join(dir, 'none.pem') } } }), /upstreams\.legacy\.tls\.caFile: .*cannot read .*ENOENT/],
    ['credential without a header', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'credential', valueFile: keyFile } } }), /identity\.header: .*is required in mode "credential"/],
    ['credential without a file', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'credential', header: 'X-API-Token' } } }), /identity\.valueFile: .*is required/],
    ['a value of two lines', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'credential', header: 'X-API-Token', valueFile: badFile } } }), /a header value cannot carry/],
    ['a key of another mode', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'jwt', valueFile: keyFile } } }), /identity\.valueFile: .*only for mode "credential"/],
    ['internal without a secret', () => resolve({ legacy: { url: 'http://legacy' } }, { ...sources, inventoryUrl: undefined, internalSecret: undefined }), /identity\.mode: .*INTERNAL_SECRET is not set/],
    ['the inventory without INTERNAL_SECRET', () => resolve({}, { ...sources, internalSecret: undefined }), /^INTERNAL_SECRET: .*must be set for netinv's inventory/],
    ['a short secret file', () => resolve({ legacy: { url: 'http://legacy', identity: { secretFile: keyFile } } }), /identity\.secretFile: .*at least 32 characters/],
    ['a release without path versioning', () => resolve({ legacy: { url: 'http://legacy', release: '6.0', identity: { mode: 'jwt' } } }), /upstreams\.legacy\.release: .*only for versioning "path"/],
    ['a bad name', () => resolve({ Legacy: { url: 'http://legacy' } }), /upstreams\.Legacy: .*key must match/],
    ['a bad mode', () => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'magic' } } }), /identity\.mode: .*must be one of internal, jwt, credential, passthrough/],
  ]
  for (const [what, fn, message] of cases) t.match(keyOf(fn), message, what)
  t.equal(keyOf(() => resolve({ legacy: { url: 'http://legacy', identity: { mode: 'credential', header: 'X-API-Token', valueFile: '/none' } } }, { ...sources, readFiles: false })), 'no error', 'described without its files')
})
