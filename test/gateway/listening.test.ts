/**
 * The start-up log names the address a listener is bound to and the addresses a user opens: a
 * gateway bound to every address is opened as localhost here (and by the machine's own addresses
 * from elsewhere), never announced as 127.0.0.1 alone.
 */
import t from 'tap'
import type { NetworkInterfaceInfo } from 'node:os'
import pino from 'pino'
import { listening } from '../../src/gateway/listening.js'
import { startGateway } from '../../src/gateway/server.js'
import { compileConfig } from '../../src/shared/config/index.js'
import { createMemoryLimiter } from '../../src/gateway/ratelimit/index.js'
import { apiKeyAuth, KEYS } from './helpers.js'

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false, scopeid = 0) =>
  ({ address, family, internal, scopeid, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo

const interfaces = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('192.0.2.10', 'IPv4'), nic('2001:db8::10', 'IPv6'), nic('fe80::1', 'IPv6', false, 2)],
}

t.test('bound to every IPv4 address: localhost here, the machine addresses from elsewhere', async (t) => {
  t.same(listening('0.0.0.0', 8080, interfaces), {
    bind: '0.0.0.0:8080 (every address of this machine)',
    url: 'http://localhost:8080',
    urls: ['http://localhost:8080', 'http://192.0.2.10:8080'],
  })
})

t.test('bound to every address (::): IPv6 addresses too, link-local ones left out', async (t) => {
  t.same(listening('::', 80, interfaces).urls, ['http://localhost:80', 'http://192.0.2.10:80', 'http://[2001:db8::10]:80'])
})

t.test('bound to one address: that address', async (t) => {
  t.same(listening('127.0.0.2', 9, interfaces), { bind: '127.0.0.2:9', url: 'http://127.0.0.2:9', urls: ['http://127.0.0.2:9'] })
  t.equal(listening('::1', 9, interfaces).url, 'http://[::1]:9')
})

t.test('the gateway logs the bind address and the address to open', async (t) => {
  const lines: Array<Record<string, unknown>> = []
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) })
  const gw = await startGateway({
    config: compileConfig({}),
    log,
    auth: apiKeyAuth(KEYS),
    limiter: createMemoryLimiter({}),
    port: 0,
    host: '0.0.0.0',
    adminPort: 0,
    adminHost: '127.0.0.1',
  })
  t.teardown(() => gw.close(0))
  const line = lines.find((l) => l.msg === 'gateway listening')
  const port = new URL(gw.url).port
  t.equal(line?.bind, `0.0.0.0:${port} (every address of this machine)`)
  t.equal(line?.url, `http://localhost:${port}`)
})
