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

  // configuration download: a fingerprint netinv has seen, and one it has not
  const snapshot = await api.discover({ profile: 'lab' })
  const saved = await api.call('POST', 'tables/management/configuration/saved', { snapshot, columns: ['sn', 'hash'], pagination: { limit: 1 } })
  const hash = (saved.body as { data: Array<{ hash: string }> }).data[0]!.hash
  const known = await api.call('GET', `tables/management/configuration/download?hash=${hash}&sanitized=true`)
  t.equal(known.status, 404)
  t.match(known.body as Err, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found', detail: /keeps the fingerprint of each configuration, not its text/ })
  const unknown = await api.call('GET', `tables/management/configuration/download?hash=${'0'.repeat(40)}`)
  t.equal(unknown.status, 404)
  t.match(unknown.body as Err, { code: 'API_NOT_FOUND', detail: /no device configuration with this fingerprint/ })
  for (const [query, path] of [['', 'hash'], ['?hash=xyz', 'hash'], [`?hash=${hash}&sanitized=maybe`, 'sanitized']] as const) {
    const bad = await api.call('GET', `tables/management/configuration/download${query}`)
    t.equal(bad.status, 422, `422 for "${query}"`)
    t.equal((bad.body as Err).errors?.[0]?.path, path)
  }
})
