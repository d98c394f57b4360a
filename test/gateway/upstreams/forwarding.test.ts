/**
 * Forwarding to configured upstreams through the real gateway: each versioning mode's path (with
 * a base path and the query string), header hygiene of `passthrough`, keep-alive pools that
 * survive a reload while their connection settings stay the same, netinv's inventory tuned as an
 * upstream, and HTTPS with a CA file, a client certificate and a server name (certificates made
 * with openssl for the test).
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileConfig } from '../../../src/shared/config/index.js'
import { createAgent, getJson } from '../../../src/gateway/upstreams/pool.js'
import { resolveUpstreams } from '../../../src/gateway/upstreams/settings.js'
import { hasCommand, testNeeding } from '../../helpers/requirements.js'
import { send, startTestGateway, startUpstream } from '../helpers.js'

function routesDir(entries: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-routes-'))
  mkdirSync(join(dir, 'routes'))
  writeFileSync(join(dir, 'routes', 'test.json'), JSON.stringify(entries))
  return join(dir, 'routes')
}

const open = (path: string, upstream: string, more: Record<string, unknown> = {}) => ({ path, methods: { GET: 'public' }, upstream, description: path, ...more })

t.test('each versioning mode sends its own path, under the URL’s path, with the query string', async (t) => {
  const echo = await startUpstream(t)
  const base = `${echo.url}/base/`
  const passthrough = { mode: 'passthrough' }
  const config = {
    upstreams: {
      hdr: { url: base, versioning: 'header', identity: passthrough },
      pth: { url: base, versioning: 'path', release: '6.0', identity: passthrough },
      orig: { url: base, versioning: 'original', identity: passthrough },
      nov: { url: base, versioning: 'none', identity: passthrough },
    },
  }
  const gw = await startTestGateway(t, {
    config,
    upstreamUrl: null,
    routesDir: routesDir([open('m/header', 'hdr'), open('m/path', 'pth'), open('m/original/*', 'orig', { legacyAliases: ['m/original/managedDevs'] }), open('m/none', 'nov')]),
  })
  const seen = async (path: string, headers: Record<string, string> = {}) => (await send(gw.url, path, { headers })).json() as { url: string; headers: Record<string, string> }
  const header = await seen('/api/m/header?x=1&y=2', { 'x-api-version': '1' })
  t.equal(header.url, '/base/api/m/header?x=1&y=2')
  t.equal(header.headers['x-api-version'], '1', 'the version in its header')
  t.equal((await seen('/api/v1/m/header')).headers['x-api-version'], '1', 'whatever generation the client used')
  const path = await seen('/api/v1/m/path?q=a', { 'x-api-version': '7' })
  t.equal(path.url, '/base/api/v6.0/m/path?q=a')
  t.equal(path.headers['x-api-version'], undefined, 'a client’s version header is not passed on')
  t.equal((await seen('/api/m/original/managed-devs')).url, '/base/api/v1/m/original/managedDevs', 'the declared camelCase alias')
  t.equal((await seen('/api/m/original/other')).url, '/base/api/v1/m/original/other')
  t.equal((await seen('/api/v1/m/none?q')).url, '/base/m/none?q', 'no version at all')
})

t.test('passthrough: the client’s credentials go through; internal and forwarding headers never do', async (t) => {
  const echo = await startUpstream(t)
  const gw = await startTestGateway(t, { config: { upstreams: { legacy: { url: echo.url, versioning: 'none', identity: { mode: 'passthrough' } } } }, routesDir: routesDir([open('devices', 'legacy')]) })
  const { headers } = (
    await send(gw.url, '/api/devices', {
      headers: { authorization: 'Basic bGVnYWN5OnB3', 'x-api-token': 'legacy-key', cookie: 'a=1', 'x-netinv-internal': '1;header;;guess', 'x-forwarded-for': '6.6.6.6', connection: 'keep-alive, x-hop', 'x-hop': 'h' },
    })
  ).json() as { headers: Record<string, string> }
  t.same([headers.authorization, headers['x-api-token'], headers.cookie], ['Basic bGVnYWN5OnB3', 'legacy-key', 'a=1'])
  t.equal(headers['x-netinv-internal'], undefined)
  t.equal(headers['x-forwarded-for'], '127.0.0.1')
  t.equal(headers['x-hop'], undefined)
  t.match(headers.host, /^127\.0\.0\.1:\d+$/, 'the upstream’s own name in Host')
})

t.test('keep-alive pools per upstream: kept across a reload while the connection settings stay, replaced when they change', async (t) => {
  const connections: Socket[] = []
  const echo = await startUpstream(t)
  echo.server.on('connection', (s: Socket) => connections.push(s))
  const upstream = (more: Record<string, unknown>) => ({ upstreams: { legacy: { url: echo.url, versioning: 'none', identity: { mode: 'passthrough' }, ...more } } })
  const gw = await startTestGateway(t, { config: upstream({}), routesDir: routesDir([open('devices', 'legacy')]) })
  for (let i = 0; i < 5; i++) t.equal((await send(gw.url, '/api/devices')).status, 200)
  t.equal(connections.length, 1, 'one connection for five requests')
  gw.gateway.setConfig(compileConfig(upstream({ timeoutMs: 5000 })))
  t.equal((await send(gw.url, '/api/devices')).status, 200)
  t.equal(connections.length, 1, 'a timeout is no reason to reconnect')
  gw.gateway.setConfig(compileConfig(upstream({ maxSockets: 4 })))
  t.equal((await send(gw.url, '/api/devices')).status, 200)
  t.equal(connections.length, 2, 'a new pool for new connection settings')
  await new Promise((resolve) => setImmediate(resolve))
  t.ok(connections[0]!.destroyed, 'and the old one’s idle connection is closed')
})

t.test('netinv’s inventory is one upstream among others: its timeouts are its own', async (t) => {
  const slow = await startUpstream(t, (_req, res) => setTimeout(() => res.end('[]'), 1000).unref())
  const gw = await startTestGateway(t, { upstreamUrl: slow.url, config: { upstreams: { inventory: { timeoutMs: 150 } } } })
  const r = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  t.equal(r.status, 504)
  t.match(r.json(), { code: 'API_UPSTREAM_TIMEOUT' })
})

/** A CA, a server certificate for legacy.test only, and a client certificate, made with openssl. */
function certificates(): Record<'ca' | 'serverKey' | 'server' | 'clientKey' | 'client', string> {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-tls-'))
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' })
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=netinv test CA')
  for (const [name, ext] of [
    ['server', 'subjectAltName=DNS:legacy.test\nextendedKeyUsage=serverAuth\n'],
    ['client', 'extendedKeyUsage=clientAuth\n'],
  ] as const) {
    writeFileSync(join(dir, `${name}.ext`), ext)
    run('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name === 'client' ? 'netinv-gateway' : 'legacy.test'}`)
    run('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`)
  }
  return { ca: join(dir, 'ca.pem'), serverKey: join(dir, 'server.key'), server: join(dir, 'server.pem'), clientKey: join(dir, 'client.key'), client: join(dir, 'client.pem') }
}

testNeeding(t, 'HTTPS upstreams: the CA file, the client certificate and the server name', hasCommand('openssl', ['version']) ? undefined : 'openssl', async (t) => {
  const files = certificates()
  const server = createHttpsServer(
    { key: readFileSync(files.serverKey), cert: readFileSync(files.server), ca: readFileSync(files.ca), requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate()
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ client: peer.subject?.CN, url: req.url }))
    },
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const tls = { caFile: files.ca, certFile: files.client, keyFile: files.clientKey, serverName: 'legacy.test' }
  const up = (t: Record<string, string>) => ({ url, versioning: 'none', identity: { mode: 'passthrough' }, tls: t, healthPath: '/health' })
  const { certFile: _c, keyFile: _k, ...noClientCert } = tls
  const { caFile: _a, ...noCa } = tls
  const { serverName: _s, ...noName } = tls
  const gw = await startTestGateway(t, {
    upstreamUrl: null,
    config: { upstreams: { good: up(tls), nocert: up(noClientCert), noca: up(noCa), noname: up(noName) } },
    routesDir: routesDir(['good', 'nocert', 'noca', 'noname'].map((name) => open(name, name))),
  })
  const good = await send(gw.url, '/api/good?x=1')
  t.equal(good.status, 200)
  t.same(good.json(), { client: 'netinv-gateway', url: '/good?x=1' }, 'the upstream saw the gateway’s client certificate')
  for (const [path, why] of <Array<[string, string]>>[
    ['nocert', 'no client certificate: the upstream refuses the handshake'],
    ['noca', 'a certificate no trusted authority signed'],
    ['noname', 'a certificate for another name'],
  ]) {
    const r = await send(gw.url, `/api/${path}`)
    t.equal(r.status, 502, why)
    t.match(r.json(), { code: 'API_UPSTREAM_UNAVAILABLE' })
  }
  const ready = (await send(gw.url, '/readyz')).json() as { upstreams: Record<string, { ok: boolean; error?: string }> }
  t.equal(ready.upstreams.good?.ok, true, 'the health probe goes over the same TLS settings')
  t.equal(ready.upstreams.noname?.ok, false)
  t.equal(ready.upstreams.noname?.error, 'ERR_TLS_CERT_ALTNAME_INVALID', 'and says why')

  // The gateway's own reads (the audit trail's state before a change) go over the same settings.
  const upstreams = resolveUpstreams(compileConfig({ upstreams: { good: up(tls), noca: up(noCa) } }), { readFiles: true })
  const read = (name: string) => getJson(upstreams.get(name)!, createAgent(upstreams.get(name)!), '/state', { accept: 'application/json' }, 2000)
  t.same(await read('good'), { client: 'netinv-gateway', url: '/state' }, 'read with the CA file and the client certificate')
  t.equal(await read('noca'), null, 'a certificate no trusted authority signed: nothing read')
})
