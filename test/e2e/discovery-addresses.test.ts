/**
 * Which addresses discovery may contact, through the real entry point (`netinv serve`) with API
 * keys and their scopes: a key of scope `write` cannot make netinv send the stored SNMP secrets
 * to an address of its choosing. Seeds and `ipList` are refused (422 naming each) unless the
 * address policy allows them, before any packet leaves; the special classes are contacted only
 * when the settings allow them; a credential limited to networks is offered only inside them.
 * A UDP socket on the SNMP port of a loopback address sees what netinv sends there.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { snmpListener } from '../helpers/snmp-listener.js'
import { apiKey, bearer, call, login, newApiKey, waitForJob } from './client.js'
import type { Page } from './answers.js'
import { serve, tempDirs } from './process.js'
import { freshPostgres } from '../helpers/db.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'
type Problems = { code: string; message: string; errors: Array<{ message: string }> }

t.test('a write key cannot make discovery send the stored SNMP secrets anywhere', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url })
  const base = app.url
  const session = await login(base, 'admin', ADMIN_PASSWORD)
  const admin = bearer(session.accessToken)
  const writer = apiKey(await newApiKey(base, session.accessToken, ['write']))
  const reader = apiKey(await newApiKey(base, session.accessToken, ['read']))
  // secrets of this test alone: other tests on the machine may send SNMP to 127.0.0.1 too
  const community = `c-${randomBytes(8).toString('hex')}`
  const v3user = `u${randomBytes(6).toString('hex')}`
  const settings = async (body: Record<string, unknown>) => t.equal((await call(base, 'PATCH', '/api/settings', { headers: admin, body })).status, 200)
  t.equal((await call(base, 'POST', '/api/settings/snmp', { headers: admin, body: { name: 'ro', version: '2c', community } })).status, 201)
  t.equal((await call(base, 'POST', '/api/settings/snmp', { headers: admin, body: { name: 'v3', version: '3', user: v3user, authProtocol: 'SHA', authPassword: 'auth-password-1' } })).status, 201)
  await settings({ include: ['10.0.0.0/8'], exclude: ['169.254.0.0/16', '127.0.0.0/8'], limits: { timeoutMs: 100, retries: 0 } })
  const listener = await snmpListener(t, '127.0.0.1')
  const snapshots = async () => (await call(base, 'GET', '/api/snapshots', { headers: reader })).json<unknown[]>().length
  const start = (body: Record<string, unknown>) => call(base, 'POST', '/api/snapshots', { headers: writer, body })

  await t.test('the attack: four seeds, three of them refused by name, nothing started, nothing sent', async (t) => {
    const before = await snapshots()
    const r = await start({ source: 'network', seeds: ['169.254.169.254', '10.250.0.1', '127.0.0.1', '198.51.100.7'] })
    t.equal(r.status, 422, r.text)
    const body = r.json<Problems>()
    t.equal(body.code, 'API_INVALID_INPUT')
    t.match(body.message, /^"seeds\[0\]" 169\.254\.169\.254 is link-local \(169\.254\.0\.0\/16\) and is never contacted; an operator may allow it with "allowedSpecialNetworks"/)
    t.match(body.errors.map((e) => e.message), [
      /^"seeds\[0\]" 169\.254\.169\.254 is link-local/,
      /^"seeds\[2\]" 127\.0\.0\.1 is loopback/,
      /^"seeds\[3\]" 198\.51\.100\.7 is outside the include networks \[10\.0\.0\.0\/8\]/,
    ])
    t.equal(body.errors.length, 3, '10.250.0.1 is inside include and outside exclude: not a problem of its own')
    t.equal(await snapshots(), before, 'no snapshot, no job: no discovery ran')
    t.same(listener.holding(community), [], 'no packet with the community reached 127.0.0.1')
    t.same(listener.holding(v3user), [], 'no SNMPv3 request reached 127.0.0.1')
  })

  await t.test('unspecified, broadcast, multicast and a loopback /16 are refused', async (t) => {
    await settings({ include: [], exclude: [] })
    for (const [seed, what] of [
      ['0.0.0.0', /^"seeds\[0\]" 0\.0\.0\.0 is unspecified/],
      ['255.255.255.255', /^"seeds\[0\]" 255\.255\.255\.255 is the broadcast address/],
      ['224.0.0.1', /^"seeds\[0\]" 224\.0\.0\.1 is multicast/],
      ['240.0.0.1', /^"seeds\[0\]" 240\.0\.0\.1 is reserved/],
    ] as const) {
      const r = await start({ source: 'network', seeds: [seed] })
      t.equal(r.status, 422, seed)
      t.match(r.json<Problems>().errors, [{ message: what }], seed)
    }
    const wide = await start({ source: 'network', seeds: ['127.0.0.0/16'] })
    t.equal(wide.status, 422)
    t.match(wide.json<Problems>().errors, [{ message: /^"seeds\[0\]" is larger than a \/20/ }], 'too large (one problem per key)')
    const loop = await start({ source: 'network', seeds: ['10.0.0.1', '127.0.0.0/24'] })
    t.match(loop.json<Problems>().errors, [{ message: /^"seeds\[1\]" 127\.0\.0\.0\/24 holds addresses that are loopback/ }], 'a network that holds loopback addresses')
    const many = await start({ source: 'network', seeds: Array.from({ length: 17 }, (_, i) => `10.${i}.0.0/20`) })
    t.match(many.json<Problems>().errors, [{ message: /^"seeds\[16\]" 10\.16\.0\.0\/20 brings the seed list to more than 65536 addresses/ }], 'the whole list is bounded')
    t.equal((await call(base, 'PUT', '/api/settings/seed', { headers: admin, body: ['127.0.0.1'] })).status, 422, 'stored seeds obey the same rule')
    t.equal((await call(base, 'PATCH', '/api/settings', { headers: writer, body: { allowedSpecialNetworks: ['0.0.0.0/0'] } })).status, 403, 'only the settings scope allows a special class')
    t.same(listener.holding(community), [])
  })

  let snapshot = ''
  await t.test('an operator allows an address explicitly: then, and only then, it is contacted', async (t) => {
    await settings({ allowedSpecialNetworks: ['127.0.0.1/32'] })
    const r = await start({ source: 'network', seeds: ['127.0.0.1'] })
    t.equal(r.status, 201, r.text)
    const { id, jobId } = r.json<{ id: string; jobId: string }>()
    snapshot = id
    t.match((await waitForJob(base, jobId, reader)).job, { status: 'done' })
    t.ok(listener.holding(community).length > 0, 'the listener sees what netinv sends (the community in clear)')
  })

  await t.test('ipList of snapshots/{id}/devices is refused the same way', async (t) => {
    await settings({ allowedSpecialNetworks: [] })
    const sent = listener.holding(community).length
    const r = await call(base, 'POST', `/api/snapshots/${snapshot}/devices`, { headers: writer, body: { ipList: ['169.254.169.254', '127.0.0.1', '224.0.0.1'] } })
    t.equal(r.status, 422, r.text)
    t.match(r.json<Problems>().errors.map((e) => e.message), [/^"ipList\[0\]" 169\.254\.169\.254 is link-local/, /^"ipList\[1\]" 127\.0\.0\.1 is loopback/, /^"ipList\[2\]" 224\.0\.0\.1 is multicast/])
    t.equal(listener.holding(community).length, sent, 'nothing more was sent')
  })

  await t.test('a credential limited to networks is offered only inside them', async (t) => {
    await settings({ allowedSpecialNetworks: ['127.0.0.1/32'] })
    const list = (await call(base, 'GET', '/api/settings/snmp', { headers: admin })).json<Array<{ id: string; name: string }>>()
    const id = (name: string) => list.find((c) => c.name === name)!.id
    const limited = await call(base, 'PATCH', `/api/settings/snmp/${id('ro')}`, { headers: admin, body: { networks: ['10.1.0.0/16'] } })
    t.match(limited.json(), { networks: ['10.1.0.0/16'], community: '********' })
    const sent = { community: listener.holding(community).length }
    const r = await start({ source: 'network', seeds: ['127.0.0.1'] })
    t.equal(r.status, 201)
    t.match((await waitForJob(base, r.json<{ jobId: string }>().jobId, reader)).job, { status: 'done' })
    t.equal(listener.holding(community).length, sent.community, 'the community limited to 10.1.0.0/16 never reached 127.0.0.1')
    const report = await call(base, 'POST', '/api/tables/discovery/connectivity-report', { headers: reader, body: { snapshot: r.json<{ id: string }>().id, columns: ['ip', 'tries', 'error'] } })
    t.match(report.json<Page>().data, [{ ip: '127.0.0.1', tries: 1, error: /^no answer/ }], 'only the credential without networks was tried')
    // inside its networks it is offered again
    await call(base, 'PATCH', `/api/settings/snmp/${id('ro')}`, { headers: admin, body: { networks: ['10.1.0.0/16', '127.0.0.0/30'] } })
    const again = await start({ source: 'network', seeds: ['127.0.0.1'] })
    await waitForJob(base, again.json<{ jobId: string }>().jobId, reader)
    t.ok(listener.holding(community).length > sent.community, 'offered inside its networks')
    t.match((await call(base, 'PATCH', `/api/settings/snmp/${id('ro')}`, { headers: admin, body: { networks: ['10.1.0.0/33'] } })).json(), { errors: [{ message: /^"networks\[0\]" must be an IPv4 network/ }] })
  })
})
