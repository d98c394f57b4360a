/**
 * Settings of network discovery through the API: seeds, include/exclude, limits, site rules,
 * schedule, and SNMP credentials that are sealed at rest, masked in every answer and never
 * logged; POST snapshots picks the source and refuses a network discovery it cannot run.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { createLogger } from '../../../src/shared/log.js'
import { listCredentials } from '../../../src/inventory/settings/credential-store.js'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'

const COMMUNITY = 'c0mmunity-never-shown'
const AUTH = 'auth-password-never-shown'
const PRIV = 'priv-password-never-shown'

t.test('network settings: validated, stored, shown beside the simulator settings', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  t.match((await api.call('GET', 'settings')).body, { profile: 'lab', include: [], exclude: [], limits: { concurrency: 16, timeoutMs: 2000, retries: 1, maxDevices: 5000, sshTimeoutMs: 15000, counterIntervalMs: 0 }, siteRules: [], defaultSite: 'default', schedule: { enabled: false } })
  const ok = await api.call('PATCH', 'settings', {
    include: ['10.0.0.0/8', '172.16.5.9/16'],
    exclude: ['10.66.0.0/16'],
    limits: { concurrency: 4 },
    siteRules: [{ site: 'Berlin', sysLocation: '^Berlin' }, { site: 'Lab', subnet: '10.213.0.0/16' }, { site: 'Core', hostname: '^core-' }],
    defaultSite: 'Elsewhere',
    schedule: { enabled: true, intervalMinutes: 60 },
  })
  t.equal(ok.status, 200)
  t.match(ok.body, { include: ['10.0.0.0/8', '172.16.0.0/16'], limits: { concurrency: 4, timeoutMs: 2000 }, defaultSite: 'Elsewhere', schedule: { enabled: true, intervalMinutes: 60 } })
  const bad = await api.call('PATCH', 'settings', { include: ['10.0.0.0/33', 'x'], limits: { concurrency: 0, speed: 1 }, siteRules: [{ site: 'A' }, { site: 'B', hostname: '(' }], schedule: { intervalMinutes: 1 }, color: 'red' })
  t.equal(bad.status, 422)
  t.same(
    (bad.body as { errors: Array<{ message: string }> }).errors.map((e) => e.message.split(' ')[0]),
    ['"color"', '"include[0]"', '"include[1]"', '"limits.concurrency"', '"limits.speed"', '"siteRules[0]"', '"siteRules[1].hostname"', '"schedule.intervalMinutes"'],
    'every problem at once',
  )
  t.same(
    (bad.body as { errors: Array<{ message: string }> }).errors.map((e) => e.message),
    [
      '"color" is not allowed; allowed keys are [profile, seed, sites, include, exclude, allowedSpecialNetworks, limits, siteRules, defaultSite, schedule, networks]',
      '"include[0]" must be an IPv4 network such as "10.0.0.0/8": "10.0.0.0/33"',
      '"include[1]" must be an IPv4 network such as "10.0.0.0/8": "x"',
      '"limits.concurrency" must be an integer between 1 and 256',
      '"limits.speed" is not allowed; allowed keys are [concurrency, timeoutMs, retries, maxDevices, sshTimeoutMs, counterIntervalMs]',
      '"siteRules[0]" must have exactly one of sysLocation, hostname or subnet',
      '"siteRules[1].hostname" is not a valid regular expression',
      '"schedule.intervalMinutes" must be an integer between 5 and 10080',
    ],
    'the messages clients parse, from the schema the document publishes',
  )
  t.match((await api.call('GET', 'settings')).body, { include: ['10.0.0.0/8', '172.16.0.0/16'] }, 'nothing of a refused change is kept')
})

t.test('seeds: a JSON array of addresses and networks', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  t.same((await api.call('GET', 'settings/seed')).body, [])
  t.same((await api.call('PUT', 'settings/seed', ['10.0.0.1', '10.0.1.0/24', '10.0.0.1', '10.0.2.7/32'])).body, ['10.0.0.1', '10.0.1.0/24', '10.0.2.7'])
  t.same((await api.call('GET', 'settings/seed')).body, ['10.0.0.1', '10.0.1.0/24', '10.0.2.7'])
  const bad = await api.call('PUT', 'settings/seed', ['10.0.0.300', '10.0.0.0/8', 7])
  t.equal(bad.status, 422)
  t.same(
    (bad.body as { errors: Array<{ message: string }> }).errors.map((e) => e.message),
    [
      '"[0]" must be an IPv4 address or network such as "10.0.0.1" or "10.0.0.0/24": "10.0.0.300"',
      '"[1]" is larger than a /20; bound the crawl with "include" instead',
      '"[2]" must be an IPv4 address or network such as "10.0.0.1" or "10.0.0.0/24": 7',
    ],
  )
  t.equal((await api.call('PUT', 'settings/seed', { seeds: [] })).status, 422)
  t.equal((await api.call('PUT', 'settings/seed', 'not json')).status, 400)
})

t.test('SNMP credentials: sealed at rest, masked in answers, kept when a client sends the mask back, never logged', async (t) => {
  const db = await freshDb(t, 'postgres')
  const key = randomBytes(32)
  let logged = ''
  const log = createLogger({ level: 'debug', stream: new Writable({ write: (chunk, _e, done) => ((logged += String(chunk)), done()) }) })
  const api = await startApp(t, db, {}, { credentialKey: key, log })
  const v2 = await api.call('POST', 'settings/snmp', { name: 'ro', version: '2c', community: COMMUNITY })
  t.equal(v2.status, 201)
  t.match(v2.body, { name: 'ro', version: '2c', community: '********', position: 1 })
  const v3 = await api.call('POST', 'settings/snmp', { version: '3', user: 'netinv', authProtocol: 'SHA-256', authPassword: AUTH, privProtocol: 'AES', privPassword: PRIV })
  t.match(v3.body, { name: 'credential 2', version: '3', user: 'netinv', authProtocol: 'SHA-256', authPassword: '********', privProtocol: 'AES', privPassword: '********', position: 2 })
  const ids = [(v2.body as { id: string }).id, (v3.body as { id: string }).id]
  const list = await api.call('GET', 'settings/snmp')
  t.notMatch(list.text, new RegExp(`${COMMUNITY}|${AUTH}|${PRIV}`))
  const back = (list.body as Array<Record<string, unknown>>)[1]!
  const { id: _id, position: _p, ...sent } = back
  t.equal((await api.call('PATCH', `settings/snmp/${ids[1]}`, { ...sent, name: 'v3', position: 1 })).status, 200)
  const stored = await db.query<{ secret: string }>('SELECT secret FROM inventory.snmp_credentials')
  t.notMatch(JSON.stringify(stored.rows), new RegExp(`${COMMUNITY}|${AUTH}|${PRIV}`), 'only sealed secrets in the database')
  const open = await listCredentials(db, key)
  t.same(
    open.map((c) => [c.position, c.credential.name]),
    [
      [1, 'v3'],
      [2, 'ro'],
    ],
    'reordered',
  )
  t.match(open[0]!.credential, { authPassword: AUTH, privPassword: PRIV }, 'the masked values sent back kept the secrets')
  await t.rejects(listCredentials(db, randomBytes(32)), { code: 'API_CONFLICT' }, 'another key cannot open them')

  const bad = await api.call('POST', 'settings/snmp', { version: '3', user: 'u', authProtocol: 'MD5', authPassword: 'short', privProtocol: 'AES', community: 'x', extra: 1 })
  t.equal(bad.status, 422)
  t.ok((bad.body as { errors: unknown[] }).errors.length >= 3)
  t.equal((await api.call('POST', 'settings/snmp', { version: '3', user: 'u', privProtocol: 'AES', privPassword: 'longenough' })).status, 422, 'privacy needs authentication')
  t.equal((await api.call('POST', 'settings/snmp', { version: '2c' })).status, 422)
  t.equal((await api.call('PATCH', 'settings/snmp/00000000-0000-4000-8000-000000000000', { name: 'x' })).status, 404)
  t.equal((await api.call('DELETE', 'settings/snmp/nope')).status, 404)

  // a discovery that uses them: 127.0.0.1 (loopback, allowed) has no agent, so every credential is tried
  t.equal((await api.call('PATCH', 'settings', { allowedSpecialNetworks: ['127.0.0.1/32'], limits: { timeoutMs: 100, retries: 0 } })).status, 200)
  const r = await api.call('POST', 'snapshots', { seeds: ['127.0.0.1'] })
  t.equal(r.status, 201)
  const job = await api.waitJob((r.body as { jobId: string }).jobId)
  t.equal(job.status, 'done')
  const report = await api.call('POST', 'tables/discovery/connectivity-report', { snapshot: (r.body as { id: string }).id, columns: ['ip', 'result', 'credential', 'tries', 'error', 'source'] })
  t.match((report.body as { data: unknown[] }).data, [{ ip: '127.0.0.1', result: 'timeout', credential: null, tries: 2, source: 'seed', error: /v3: no answer.*ro: no answer/ }])
  const snap = (await api.call('GET', `snapshots/${(r.body as { id: string }).id}`)).body
  t.match(snap, { origin: 'network', totalDevCount: 0, errors: [{ errorType: 'SNMP_TIMEOUT', count: 1 }] })
  t.equal((await api.call('DELETE', `settings/snmp/${ids[0]}`)).status, 204)
  t.notMatch(logged, new RegExp(`${COMMUNITY}|${AUTH}|${PRIV}`), 'no secret reached the log')
})

t.test('POST snapshots picks the source', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  const sim = await api.call('POST', 'snapshots', {})
  t.equal(sim.status, 201, 'no seeds: the simulator')
  t.match((await api.call('GET', `snapshots/${(sim.body as { id: string }).id}`)).body, { origin: 'simulator' })
  const none = await api.call('POST', 'snapshots', { source: 'network' })
  t.equal(none.status, 422)
  t.same(
    (none.body as { errors: Array<{ message: string }> }).errors.map((e) => e.message),
    ['no seed address: set them with PUT settings/seed or give "seeds" in the request', 'no SNMP credential is configured: add one with POST settings/snmp'],
  )
  t.match((await api.call('POST', 'snapshots', { source: 'everything' })).body, { errors: [{ message: '"source" must be one of [network, simulator]' }] })
  t.match((await api.call('POST', 'snapshots', { source: 'network', seeds: ['10.0.0.0/8'], profile: 'lab' })).body, {
    errors: [{ message: /^"profile" is not allowed for a network discovery/ }, { message: /^"seeds\[0\]" is larger than a \/20/ }],
  })
  t.match((await api.call('POST', 'snapshots', { source: 'simulator', seeds: ['10.0.0.1'] })).body, { errors: [{ message: /^"seeds" is not allowed; allowed keys are \[snapshotName, snapshotNote, source, profile, seed, sites\]/ }] })
  t.equal((await api.call('PUT', 'settings/seed', ['10.0.0.1'])).status, 200)
  t.match((await api.call('POST', 'snapshots', {})).body, { errors: [{ message: /no SNMP credential/ }] }, 'with seeds stored, the network is the default source')
})

t.test('the Python SDK\'s Discovery settings: networks.include and networks.exclude read and written', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  t.same(((await api.call('GET', 'settings')).body as { networks: unknown }).networks, { include: [], exclude: [] }, 'GET settings has the networks object')
  // update_discovery_networks: the new exclude list with the current include list
  const patched = await api.call('PATCH', 'settings', { networks: { exclude: ['10.66.0.0/16'], include: [] } })
  t.equal(patched.status, 200, patched.text)
  t.match(patched.body, { networks: { include: [], exclude: ['10.66.0.0/16'] }, exclude: ['10.66.0.0/16'] }, 'the same lists as the top-level keys')
  const both = await api.call('PATCH', 'settings', { exclude: ['10.0.0.0/8'], networks: { exclude: ['10.66.0.0/16'] } })
  t.equal(both.status, 422)
  t.match(both.body, { errors: [{ message: '"networks.exclude" and "exclude" are the same list: give it once' }] })
  const wrong = await api.call('PATCH', 'settings', { networks: { include: ['nope'], other: 1 } })
  t.equal(wrong.status, 422)
})
