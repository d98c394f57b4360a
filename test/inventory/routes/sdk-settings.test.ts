/**
 * The settings the Python SDK's settings models read (Authentication reads credentials and
 * privileges when it starts, VendorAPI and SiteSeparation their lists) and the configuration
 * download its DeviceConfigs calls: answered from what netinv keeps, secrets never shown, and a
 * configuration text netinv does not keep is a clear 404, never an error body served as the text.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'

const COMMUNITY = 'c0mmunity-never-shown'
const AUTH = 'auth-password-never-shown'

type Err = { code: string; message: string; detail?: string; errors?: Array<{ message: string; path?: string }> }

t.test('settings as the SDK reads them, and configuration downloads', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))

  // nothing configured yet: every list the SDK iterates is there and empty
  t.same((await api.call('GET', 'settings/credentials')).body, { data: [] })
  t.same((await api.call('GET', 'settings/privileges')).body, { data: [] })
  t.same((await api.call('GET', 'settings/vendor-api')).body, [])
  t.same((await api.call('GET', 'settings/site-separation')).body, { rules: [], defaultSite: 'default' })

  t.equal((await api.call('POST', 'settings/snmp', { name: 'ro', version: '2c', community: COMMUNITY })).status, 201)
  t.equal((await api.call('POST', 'settings/snmp', { name: 'lab', version: '3', user: 'netinv', authProtocol: 'SHA-256', authPassword: AUTH, networks: ['10.213.0.0/16'] })).status, 201)
  const creds = await api.call('GET', 'settings/credentials')
  t.equal(creds.status, 200)
  t.notOk(creds.text.includes(COMMUNITY) || creds.text.includes(AUTH), 'no secret in the answer')
  const data = (creds.body as { data: Array<Record<string, unknown>> }).data
  // every key the SDK's Credential model requires, with its type
  for (const c of data) t.match(c, { id: String, priority: Number, username: String, password: '********', network: Array, excludeNetworks: [], expirationDate: { enabled: false }, syslog: false })
  t.match(data, [
    { priority: 1, username: '', notes: 'ro', network: ['0.0.0.0/0'], version: '2c' },
    { priority: 2, username: 'netinv', notes: 'lab', network: ['10.213.0.0/16'], version: '3' },
  ])
  // the SDK keys credentials by priority: one each
  t.equal(new Set(data.map((c) => c.priority)).size, data.length)

  t.equal((await api.call('PATCH', 'settings', { siteRules: [{ site: 'Berlin', sysLocation: '^Berlin' }, { site: 'Lab', subnet: '10.213.0.0/16' }, { site: 'Core', hostname: '^core-' }], defaultSite: 'Elsewhere' })).status, 200)
  t.match((await api.call('GET', 'settings/site-separation')).body, {
    defaultSite: 'Elsewhere',
    rules: [
      { type: 'regexSnmpLocation', regex: '^Berlin', siteName: 'Berlin', transformation: 'none' },
      { type: 'subnet', subnet: '10.213.0.0/16', siteName: 'Lab', regex: null },
      { type: 'regexHostname', regex: '^core-', siteName: 'Core' },
    ],
  })

  const snapshot = await api.discover({ profile: 'lab' })
  // columns under the names integrations request, equal to what they stand for
  type Rows = { data: Array<Record<string, unknown>> }
  const rows = async (table: string, columns: string[]) => {
    const r = await api.call('POST', `tables/${table}`, { snapshot, columns, pagination: { limit: 5000 } })
    t.equal(r.status, 200, table)
    return (r.body as Rows).data
  }
  const devices = await rows('inventory/devices', ['sn', 'snHw', 'hostname', 'fqdn', 'hostnameOriginal'])
  t.ok(devices.length > 0)
  for (const d of devices) t.equal(d.hostnameOriginal, d.fqdn ?? d.hostname, `${String(d.sn)}: hostnameOriginal`)
  const snHw = new Map(devices.map((d) => [d.sn, d.snHw]))
  const managed = await rows('addressing/managed-devs', ['sn', 'snHw'])
  t.ok(managed.length > 0 && managed.every((m) => m.snHw === snHw.get(m.sn)), 'managed-devs snHw is the device\'s')
  const counters = new Map((await rows('interfaces/counters', ['id', 'inBytes', 'outBytes'])).map((c) => [c.id, Number(c.inBytes) + Number(c.outBytes)]))
  const drops = await rows('interfaces/drops/bidirectional', ['id', 'dropPkts', 'dropPktsPct', 'dropsRate', 'dropsPktsPct', 'bytesRate'])
  t.ok(drops.length > 0)
  t.ok(drops.every((r) => r.dropsRate === r.dropPkts && r.dropsPktsPct === r.dropPktsPct && r.bytesRate === counters.get(r.id)), 'drops: the names integrations request')
  const errs = await rows('interfaces/errors/bidirectional', ['id', 'errPkts', 'errRate', 'bytesRate'])
  t.ok(errs.length > 0 && errs.every((r) => r.errRate === r.errPkts && r.bytesRate === counters.get(r.id)), 'errors: the names integrations request')
  const owner = new Map((await rows('addressing/managed-devs', ['sn', 'ip', 'intName'])).map((m) => [`${String(m.sn)} ${String(m.ip)}`, m.intName]))
  const bgp = await rows('routing/protocols/bgp/neighbors', ['sn', 'localAddress', 'srcInt'])
  t.ok(bgp.some((b) => b.srcInt !== null), 'sessions with a source interface')
  for (const b of bgp) t.equal(b.srcInt, owner.get(`${String(b.sn)} ${String(b.localAddress)}`) ?? null, 'srcInt holds the local address')
  const filtered = await api.call('POST', 'tables/addressing/managed-devs', { snapshot, columns: ['sn', 'snHw'], filters: { snHw: ['eq', String(managed[0]!.snHw)] }, sort: { column: 'snHw', order: 'desc' } })
  t.equal(filtered.status, 200)
  t.ok((filtered.body as Rows).data.every((m) => m.snHw === managed[0]!.snHw), 'snHw filters and sorts')

  // configuration download: a fingerprint netinv has seen, and one it has not
  const saved = await api.call('POST', 'tables/management/configuration/saved', { snapshot, columns: ['sn', 'hash'], pagination: { limit: 1 } })
  const hash = (saved.body as { data: Array<{ hash: string }> }).data[0]!.hash
  const known = await api.call('GET', `tables/management/configuration/download?hash=${hash}&sanitized=true`)
  t.equal(known.status, 404)
  t.match(known.body as Err, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found', detail: /not kept \(only configurations read over SSH by network discovery have a text/ })
  const unknown = await api.call('GET', `tables/management/configuration/download?hash=${'0'.repeat(40)}`)
  t.equal(unknown.status, 404)
  t.match(unknown.body as Err, { code: 'API_NOT_FOUND', detail: /no device configuration with this fingerprint/ })
  for (const [query, path] of [['', 'hash'], ['?hash=xyz', 'hash'], [`?hash=${hash}&sanitized=maybe`, 'sanitized']] as const) {
    const bad = await api.call('GET', `tables/management/configuration/download${query}`)
    t.equal(bad.status, 422, `422 for "${query}"`)
    t.equal((bad.body as Err).errors?.[0]?.path, path)
  }
})
