import t from 'tap'
import { createHash } from 'node:crypto'
import { GENERATORS, simulate, siteNames, tableObjects, type Row, type SimSettings } from '../../../src/inventory/simulator/index.js'
import { csvField } from '../../../src/inventory/storage/index.js'
import { PROFILES } from '../../../src/inventory/simulator/profiles.js'
import { buildNetwork, buildNetworkInTurns } from '../../../src/inventory/simulator/network.js'

const LAB: SimSettings = { profile: 'lab', seed: 42, sites: [], generation: 0 }

function collect(settings: SimSettings): Map<string, Row[]> {
  const sim = simulate(settings)
  return new Map(GENERATORS.map(([table, gen]) => [table.path, [...tableObjects(sim.network, gen)]]))
}

function digest(tables: Map<string, Row[]>): string {
  return createHash('sha256').update(JSON.stringify([...tables])).digest('hex')
}

const ipInt = (ip: string) => ip.split('.').reduce((a, o) => a * 256 + Number(o), 0)
function contains(net: string, ip: string): boolean {
  const [addr, len] = net.split('/') as [string, string]
  const size = 2 ** (32 - Number(len))
  const start = ipInt(addr)
  const x = ipInt(ip.split('/')[0]!)
  return x >= start && x < start + size
}

const lab = collect(LAB)
const rows = (path: string) => lab.get(path)!

t.test('the same settings give the same network', async (t) => {
  t.equal(digest(collect(LAB)), digest(lab))
  t.not(digest(collect({ ...LAB, seed: 43 })), digest(lab), 'another seed, another network')
})

t.test('lab size and shape', async (t) => {
  t.equal(rows('inventory/sites').length, PROFILES.lab.sites)
  t.ok(rows('inventory/devices').length >= 90 && rows('inventory/devices').length <= 130, 'about 100 devices')
  for (const [table] of GENERATORS) {
    const list = rows(table.path)
    t.ok(list.length > 0, `${table.path} has rows`)
    const ids = new Set(list.map((r) => r.id))
    t.equal(ids.size, list.length, `${table.path}: ids unique`)
    for (const c of table.columns) for (const r of list) csvField(r[c.name], c.type, `${table.path}.${c.name}`)
  }
  const vendors = new Set(rows('inventory/devices').map((d) => d.vendor))
  t.ok(vendors.size >= 4, `several vendors (${[...vendors].join(', ')})`)
})

t.test('tables agree with each other', async (t) => {
  const interfaces = new Set(rows('inventory/interfaces').map((i) => `${i.sn}|${i.intName}`))
  const devices = new Map(rows('inventory/devices').map((d) => [d.sn as string, d]))
  const neighbours = rows('neighbors/all')
  const pairs = new Set(neighbours.map((n) => `${n.localSn}|${n.localInt}|${n.remoteSn}|${n.remoteInt}`))
  let bad = 0
  for (const n of neighbours) if (!interfaces.has(`${n.localSn}|${n.localInt}`) || !interfaces.has(`${n.remoteSn}|${n.remoteInt}`)) bad++
  t.equal(bad, 0, 'every neighbour pair joins two real interfaces')
  const oneWay = neighbours.filter((n) => !pairs.has(`${n.remoteSn}|${n.remoteInt}|${n.localSn}|${n.localInt}`))
  t.ok(oneWay.length < neighbours.length * 0.05, `most links are seen from both ends (${oneWay.length} of ${neighbours.length} from one)`)
  const role = (sn: unknown) => devices.get(sn as string)!.devType
  t.ok(oneWay.every((n) => role(n.localSn) === 'switch' || role(n.localSn) === 'ap'), 'only access switch uplinks and access point ports stay silent: their own reports remain')

  const managed = rows('addressing/managed-devs')
  const addresses = new Map(managed.map((m) => [m.ip as string, m]))
  const hosts = new Map(rows('addressing/hosts').map((h) => [h.ip as string, h]))
  const byInterface = new Map(managed.map((m) => [`${m.sn}|${m.intName}`, m]))
  bad = 0
  for (const a of rows('addressing/arp')) {
    const owner = addresses.get(a.ip as string) ?? hosts.get(a.ip as string)
    const local = byInterface.get(`${a.sn}|${a.intName}`)
    if (!owner || owner.mac !== a.mac || !local || !contains(local.net as string, a.ip as string)) bad++
  }
  t.equal(bad, 0, 'ARP entries match interface or host addresses on a local subnet')

  const nets = new Set(managed.map((m) => m.net as string))
  bad = 0
  for (const r of rows('networks/routes')) {
    if (r.network === '0.0.0.0/0') continue
    if (!nets.has(r.network as string) && !managed.some((m) => contains(r.network as string, m.ip as string))) bad++
    const hops = r.nexthop as Array<{ ip: string | null }>
    if (hops.length !== r.nhCount) bad++
    for (const h of hops) if (h.ip !== null && !addresses.has(h.ip) && !contains('100.64.0.0/10', h.ip)) bad++
  }
  t.equal(bad, 0, 'routes point at networks devices hold, through real next hops')

  for (const s of rows('inventory/sites')) {
    const here = rows('inventory/devices').filter((d) => d.siteName === s.siteName)
    t.equal(s.devicesCount, here.length, `${s.siteName} devices`)
    t.equal(s.routersCount, here.filter((d) => d.devType === 'router').length)
    t.equal(s.switchesCount, here.filter((d) => d.devType === 'switch' || d.devType === 'l3switch').length)
    t.equal(s.usersCount, rows('addressing/hosts').filter((h) => h.siteName === s.siteName).length)
    t.equal(s.networksCount, new Set(managed.filter((m) => m.siteName === s.siteName).map((m) => m.net)).size)
    t.equal(s.vlanCount, new Set(rows('vlan/device').filter((v) => v.siteName === s.siteName).map((v) => v.vlanId)).size)
  }
  t.ok(rows('inventory/pn').every((p) => devices.has(p.deviceSn as string)), 'parts belong to devices')
  t.ok(rows('interfaces/switchports').every((p) => interfaces.has(`${p.sn}|${p.intName}`)), 'switch ports are interfaces')
  t.ok(rows('addressing/mac').every((m) => interfaces.has(`${m.sn}|${m.intName}`)), 'MAC entries sit on interfaces')
})

t.test('successive discoveries differ a little', async (t) => {
  const next = collect({ ...LAB, generation: 1 })
  const before = new Set(rows('inventory/devices').map((d) => d.sn))
  const after = new Set(next.get('inventory/devices')!.map((d) => d.sn))
  const state = (list: Row[]) => new Map(list.map((i) => [i.id, i.l1]))
  const a = state(rows('inventory/interfaces'))
  const b = state(next.get('inventory/interfaces')!)
  let flapped = 0
  for (const [id, l1] of a) if (b.has(id) && b.get(id) !== l1) flapped++
  t.ok(flapped > 0 && flapped < a.size * 0.1, `some interfaces flap (${flapped} of ${a.size})`)
  const changed = [...before].filter((s) => !after.has(s)).length + [...after].filter((s) => !before.has(s)).length
  t.ok(changed < before.size * 0.1, `few devices come or go (${changed})`)
  const sim = simulate({ ...LAB, generation: 1 })
  t.equal(sim.summary.totalDevCount, after.size)
})

t.test('successive discoveries: hand-offs are retired and ordered, leases move addresses, the same on every run', async (t) => {
  const next = collect({ ...LAB, generation: 1 })
  t.equal(digest(collect({ ...LAB, generation: 1 })), digest(next), 'a generation is deterministic')
  const later = collect({ ...LAB, generation: 2 })
  const inNext = new Set(next.get('inventory/devices')!.map((d) => d.sn))
  const present = new Set(later.get('inventory/devices')!.map((d) => d.sn).filter((sn) => inNext.has(sn)))
  const subs = (list: Row[]) => new Set(list.filter((i) => present.has(i.sn) && /\.2\d\d$/.test(String(i.intName))).map((i) => `${i.sn}|${i.intName}`))
  const [a, b] = [subs(next.get('inventory/interfaces')!), subs(later.get('inventory/interfaces')!)]
  const gone = [...a].filter((x) => !b.has(x)).length
  const come = [...b].filter((x) => !a.has(x)).length
  t.ok(gone > 0 && come > 0 && gone + come < a.size * 0.2, `some hand-offs are retired (${gone}) and others ordered (${come}) of ${a.size}`)
  // an interface in both discoveries keeps its MAC address: no change that did not happen (a sub-interface answers with its port's)
  const macs = (list: Row[]) => new Map(list.map((i) => [`${String(i.sn)}|${String(i.intName)}`, i.mac]))
  const [m1, m2] = [macs(next.get('inventory/interfaces')!), macs(later.get('inventory/interfaces')!)]
  t.same([...m1].filter(([k, mac]) => m2.has(k) && m2.get(k) !== mac).map(([k]) => k), [], 'no interface changes its MAC address')
  const port = (list: Row[]) => new Map(list.filter((i) => /\.2\d\d$/.test(String(i.intName))).map((i) => [i, list.find((p) => p.sn === i.sn && p.intName === String(i.intName).split('.')[0])]))
  t.ok([...port(next.get('inventory/interfaces')!)].every(([sub, p]) => p !== undefined && sub.mac === p.mac), 'a sub-interface has its port\'s MAC address')
  const hostIp = (list: Row[]) => new Map(list.map((h) => [h.mac, h.ip]))
  const [before, after] = [hostIp(rows('addressing/hosts')), hostIp(next.get('addressing/hosts')!)]
  const moved = [...after].filter(([mac, ip]) => before.has(mac) && before.get(mac) !== ip).length
  t.ok(moved > 0 && moved < after.size * 0.1, `a few hosts have another address (${moved} of ${after.size})`)
  t.equal(new Set(after.values()).size, after.size, 'never two hosts on one address')
})

t.test('site list limits the discovery', async (t) => {
  const names = siteNames('lab').slice(0, 2)
  const sim = simulate({ ...LAB, sites: names })
  t.same(sim.summary.sites.map((s) => s.siteName), names)
})

t.test('large profile holds more than a million interfaces', async (t) => {
  const net = buildNetwork({ profile: 'large', seed: 1, sites: [], generation: 0 })
  let ports = 0
  for (const s of net.sites) for (const d of s.devices) if (net.present(d)) ports += d.members * d.platform.ports + d.platform.uplinks
  t.ok(net.sites.length === 1000)
  t.ok(ports >= 1_000_000, `front-panel and uplink ports alone: ${ports}`)
})

t.test('some sites are simulated without the others, with the same rows', async (t) => {
  const all = simulate(LAB)
  const some = new Set([1, 5, 9])
  const sns = new Set(all.network.sites.filter((s) => some.has(s.index)).flatMap((s) => s.devices.map((d) => d.sn)))
  const rowsOf = async (sim: ReturnType<typeof simulate>, only?: Parameters<typeof sim.tables>[0]) => {
    const out = new Map<string, unknown[][]>()
    for (const { table, rows } of sim.tables(only)) {
      const list = out.get(table.path) ?? []
      for await (const row of rows) list.push([...row])
      out.set(table.path, list)
    }
    return out
  }
  const whole = await rowsOf(all)
  const part = await rowsOf(simulate(LAB, await buildNetworkInTurns(LAB)), (site) => some.has(site.index))
  t.same([...part.keys()], [...whole.keys()], 'every table')
  const [sites, devices] = [part.get('inventory/sites')!, part.get('inventory/devices')!]
  t.equal(sites.length, some.size)
  t.ok(devices.length > 0 && devices.every((r) => r.some((v) => typeof v === 'string' && sns.has(v))), 'only devices of those sites')
  for (const [path, rows] of part) {
    const wanted = new Set(rows.map((r) => JSON.stringify(r)))
    t.equal(whole.get(path)!.filter((r) => wanted.has(JSON.stringify(r))).length, rows.length, `${path}: the rows of those sites, as the whole network has them`)
  }
})
