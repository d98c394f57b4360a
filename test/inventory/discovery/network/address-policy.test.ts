/**
 * The address policy (which addresses discovery may contact) on its own, and in the crawl: a
 * real SNMP agent (net-snmp's, on a loopback address the settings allow) names in its LLDP
 * table a neighbour at an address the policy refuses; the crawl reports it as skipped and never
 * sends it a packet (a UDP socket on that address's SNMP port sees nothing) until an operator
 * allows it.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import snmp from 'net-snmp'
import { AddressPolicy, type OwnAddresses } from '../../../../src/inventory/discovery/network/address-policy.js'
import { ipToInt } from '../../../../src/shared/ipv4.js'
import { freshDb } from '../../../helpers/db.js'
import { SNMP_PORT, loopbackAddress, snmpListener } from '../../../helpers/snmp-listener.js'
import { startApp } from '../../app.js'

const OWN: OwnAddresses = { addresses: new Set([ipToInt('127.0.0.1'), ipToInt('10.9.0.5')]), broadcasts: new Set([ipToInt('10.9.0.255')]) }
const policy = (s: Partial<{ include: string[]; exclude: string[]; allowedSpecialNetworks: string[] }> = {}) =>
  new AddressPolicy({ include: [], exclude: [], allowedSpecialNetworks: [], ...s }, OWN)

t.test('the special classes, this machine, include and exclude', async (t) => {
  const p = policy()
  for (const [ip, what] of [
    ['0.0.0.0', /^is unspecified/],
    ['0.1.2.3', /^is unspecified/],
    ['127.0.0.1', /^is loopback/],
    ['127.200.0.9', /^is loopback/],
    ['169.254.169.254', /^is link-local/],
    ['224.0.0.1', /^is multicast/],
    ['239.255.255.250', /^is multicast/],
    ['255.255.255.255', /^is the broadcast address/],
    ['240.0.0.1', /^is reserved/],
    ['10.9.0.5', /^is an address of the machine netinv runs on/],
    ['10.9.0.255', /^is the broadcast address of a network of the machine/],
  ] as const) t.match(p.refusal(ip), what, ip)
  for (const ip of ['10.9.0.6', '172.16.0.1', '192.168.1.1', '100.64.0.1']) t.equal(p.refusal(ip), null, ip)
  // Without include networks discovery keeps to the private ones: a host on the internet (the
  // attacker's own) is never sent the stored credentials on a fresh installation.
  for (const ip of ['192.0.2.1', '198.51.100.7', '8.8.8.8', '223.255.255.255']) t.match(p.refusal(ip), /^is outside the private networks \[10\.0\.0\.0\/8, 172\.16\.0\.0\/12, 192\.168\.0\.0\/16, 100\.64\.0\.0\/10\] that discovery keeps to while no include networks are set/, ip)
  t.equal(policy({ include: ['198.51.100.0/24'] }).refusal('198.51.100.7'), null, 'an included public network is contacted')
  t.equal(policy({ allowedSpecialNetworks: ['127.0.0.0/8'] }).refusal('127.0.0.1'), null, 'allowed: loopback and this machine')
  t.match(policy({ allowedSpecialNetworks: ['127.0.0.0/24'] }).refusal('127.0.1.1'), /^is loopback/, 'only what is allowed')
  t.match(policy({ allowedSpecialNetworks: ['127.0.0.0/8'], include: ['10.0.0.0/8'] }).refusal('127.0.0.1'), /^is outside the include networks \[10\.0\.0\.0\/8\]/, 'an allowed address still obeys include')
  const scoped = policy({ include: ['10.0.0.0/8'], exclude: ['10.66.0.0/16'] })
  t.equal(scoped.refusal('10.1.2.3'), null)
  t.match(scoped.refusal('10.66.0.1'), /^is inside the exclude networks \[10\.66\.0\.0\/16\]/)
  t.match(scoped.refusal('11.0.0.1'), /^is outside the include networks/)
  t.match(scoped.narrowed(['10.1.0.0/16'], [], 'snapshot s1').refusal('10.2.0.1'), /^is outside the include networks of snapshot s1 \[10\.1\.0\.0\/16\]/, 'a narrower scope applies too')
  t.match(scoped.narrowed([], [], 'snapshot s1').refusal('10.66.0.1'), /^is inside the exclude networks \[10\.66\.0\.0\/16\]/, 'and never widens')
})

t.test('seed networks', async (t) => {
  const p = policy({ include: ['10.0.0.0/9', '10.128.0.0/9'], exclude: ['10.5.0.0/24'] })
  t.equal(p.seedRefusal('10.127.255.0/23'), null, 'covered by two include networks together')
  t.equal(p.seedRefusal('10.5.0.0/23'), null, 'partly excluded: the crawl skips those addresses')
  t.match(p.seedRefusal('10.5.0.0/25'), /^is inside the exclude networks \[10\.5\.0\.0\/24\]/)
  t.match(policy().seedRefusal('127.0.0.0/16'), /^holds addresses that are loopback/)
  t.match(policy().seedRefusal('255.255.240.0/20'), /^holds addresses that are the broadcast address/)
  t.equal(policy().seedRefusal('10.9.0.0/24'), null, "a network holding this machine's address: the crawl skips that address")
  t.equal(policy({ allowedSpecialNetworks: ['127.0.0.0/16'] }).seedRefusal('127.0.4.0/24'), null)
})

/** An agent at `address` answering the system group and an LLDP neighbour at `neighbour` (x.y.z.0). */
function agentWithNeighbour(t: { teardown(fn: () => unknown): void }, address: string, community: string, neighbour: string): void {
  const agent = snmp.createAgent({ port: SNMP_PORT, address, disableAuthorization: false }, () => {})
  agent.getAuthorizer().addCommunity(community)
  const mib = agent.getMib()
  const scalar = (name: string, oid: string, type: number, value: unknown) => {
    mib.registerProvider({ name, type: snmp.MibProviderType.Scalar, oid, scalarType: type, maxAccess: snmp.MaxAccess['read-only'] })
    mib.setScalarValue(name, value)
  }
  scalar('sysDescr', '1.3.6.1.2.1.1.1', snmp.ObjectType.OctetString, 'Linux test agent')
  scalar('sysObjectID', '1.3.6.1.2.1.1.2', snmp.ObjectType.OID, '1.3.6.1.4.1.8072.3.2.10')
  scalar('sysName', '1.3.6.1.2.1.1.5', snmp.ObjectType.OctetString, 'seed-router')
  // one LLDP remote (timeMark 0, local port 1, index 0) with one IPv4 management address: a
  // scalar's instance ends in .0, which here is the remote's index and the address's last byte
  scalar('lldpRemSysName', '1.0.8802.1.1.2.1.4.1.1.9.0.1', snmp.ObjectType.OctetString, 'neighbour')
  const [a, b, c] = neighbour.split('.')
  scalar('lldpRemManAddrIfSubtype', `1.0.8802.1.1.2.1.4.2.1.3.0.1.0.1.4.${a}.${b}.${c}`, snmp.ObjectType.Integer, 2)
  t.teardown(() => agent.close())
}

t.test('an address learnt over LLDP that the policy refuses is skipped, never sent a packet', async (t) => {
  const seed = loopbackAddress()
  const neighbour = seed.replace(/\.\d+$/, '.0')
  const community = `c-${randomBytes(8).toString('hex')}`
  agentWithNeighbour(t, seed, community, neighbour)
  const listener = await snmpListener(t, neighbour)
  const api = await startApp(t, await freshDb(t, 'postgres'))
  t.equal((await api.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community })).status, 201)
  // the seed's own address is allowed, its neighbour (loopback too) is not
  t.equal((await api.call('PATCH', 'settings', { allowedSpecialNetworks: [`${seed}/32`], limits: { timeoutMs: 3000, retries: 1 } })).status, 200)
  const report = async (id: string) =>
    ((await api.call('POST', 'tables/discovery/connectivity-report', { snapshot: id, columns: ['ip', 'result', 'source', 'error'], sort: { column: 'ip', order: 'asc' } })).body as { data: unknown[] }).data
  const first = await api.discover({ source: 'network', seeds: [seed] })
  t.match(await report(first), [
    { ip: neighbour, result: 'skipped', source: 'lldp', error: new RegExp(`^not contacted: ${neighbour.replace(/\./g, '\\.')} is loopback`) },
    { ip: seed, result: 'ok', source: 'seed' },
  ])
  t.same(listener.holding(community), [], 'no packet reached the neighbour')

  // allowed explicitly, the same neighbour is contacted: the listener would have seen it
  t.equal((await api.call('PATCH', 'settings', { allowedSpecialNetworks: [`${seed}/32`, `${neighbour}/32`] })).status, 200)
  const second = await api.discover({ source: 'network', seeds: [seed] })
  t.match(await report(second), [{ ip: neighbour, result: 'timeout', source: 'lldp' }, { ip: seed, result: 'ok' }])
  t.ok(listener.holding(community).length > 0, 'contacted once allowed')
})
