/** Table requests from command-line words, with plain values. */
import t from 'tap'
import { combineFilters, parseFilter, parseSort, resolveTable, type TableInfo } from '../../src/client/tables.js'

const COLUMNS = [
  { name: 'hostname', type: 'string' },
  { name: 'mtu', type: 'integer' },
  { name: 'hasTransceiver', type: 'boolean' },
  { name: 'primaryIp', type: 'ip' },
]
const TABLES: TableInfo[] = ['inventory/interfaces', 'vrf/interfaces', 'inventory/devices', 'routing/protocols/bgp/neighbors', 'routing/protocols/ospf/neighbors', 'neighbors/all', 'vlan/device'].map((path) => ({
  path,
  legacyPaths: path === 'inventory/devices' ? ['inventory/devs'] : [],
  snapshotScoped: true,
  columns: COLUMNS,
}))

t.test('tables by path, legacy path, inventory name or the end of one path', async (t) => {
  t.equal(resolveTable(TABLES, 'vrf/interfaces').path, 'vrf/interfaces')
  t.equal(resolveTable(TABLES, '/tables/inventory/devices').path, 'inventory/devices')
  t.equal(resolveTable(TABLES, 'inventory/devs').path, 'inventory/devices')
  t.equal(resolveTable(TABLES, 'interfaces').path, 'inventory/interfaces', 'the inventory group first')
  t.equal(resolveTable(TABLES, 'bgp/neighbors').path, 'routing/protocols/bgp/neighbors')
  t.throws(() => resolveTable(TABLES, 'neighbors'), /table "neighbors" is ambiguous: routing\/protocols\/bgp\/neighbors, routing\/protocols\/ospf\/neighbors/)
  t.throws(() => resolveTable(TABLES, 'devcies'), /no table "devcies" \(did you mean inventory\/devices or vlan\/device\?\)/)
  // one word that ends one path and is close to another table's name is not taken silently
  t.throws(() => resolveTable(TABLES, 'device'), /table "device" is ambiguous: vlan\/device, inventory\/devices; give its path/)
  t.equal(resolveTable(TABLES, 'vlan/device').path, 'vlan/device', 'its path names it')
  t.throws(() => resolveTable(TABLES, 'inventory/device'), /no table "inventory\/device" \(did you mean inventory\/devices or vlan\/device\?\)/)
  t.throws(() => resolveTable(TABLES, 'zzzz'), /^no table "zzzz"; "netinv query --tables" lists them$/)
})

t.test('a typo is offered the tables netinv fills before those it does not collect', async (t) => {
  const uncollected = (path: string): TableInfo => ({ path, snapshotScoped: true, collected: false, columns: COLUMNS })
  const all = [...TABLES, uncollected('dhcp/relay/interfaces'), uncollected('dhcp/server/interfaces')]
  t.throws(() => resolveTable(all, 'interfacs'), /no table "interfacs" \(did you mean inventory\/interfaces\?\)/)
  const only = [...TABLES.filter((x) => !x.path.endsWith('interfaces')), uncollected('dhcp/relay/interfaces')]
  t.throws(() => resolveTable(only, 'relay/interfacs'), /did you mean dhcp\/relay\/interfaces/, 'an uncollected table when no other is near')
})

t.test('filters typed by their column', async (t) => {
  t.same(parseFilter('hostname:eq:core-1', COLUMNS), { hostname: ['eq', 'core-1'] })
  t.same(parseFilter('mtu:eq:1500', COLUMNS), { mtu: ['eq', 1500] })
  t.same(parseFilter('hostname:eq:1500', COLUMNS), { hostname: ['eq', '1500'] }, 'a string column keeps digits as text')
  t.same(parseFilter('hasTransceiver:eq:true', COLUMNS), { hasTransceiver: ['eq', true] })
  t.same(parseFilter('primaryIp:eq:null', COLUMNS), { primaryIp: ['eq', null] })
  t.same(parseFilter('primaryIp:empty:false', COLUMNS), { primaryIp: ['empty', false] })
  t.same(parseFilter('primaryIp:cidr:10.0.0.0/8', COLUMNS), { primaryIp: ['cidr', '10.0.0.0/8'] })
  t.same(parseFilter('mac:eq:aa:bb:cc:dd:ee:ff', COLUMNS), { mac: ['eq', 'aa:bb:cc:dd:ee:ff'] }, 'the value keeps its colons')
  t.same(parseFilter('{"or": [{"mtu": ["gt", 1500]}]}', COLUMNS), { or: [{ mtu: ['gt', 1500] }] })
  t.throws(() => parseFilter('mtu:gt:big', COLUMNS), /"gt" compares numbers; "big" is not one/)
  t.throws(() => parseFilter('hostname=core', COLUMNS), /is not column:operator:value/)
  t.throws(() => parseFilter('{"or": ', COLUMNS), /is not valid JSON/)
  t.throws(() => parseFilter('[1]', COLUMNS), /is not column:operator:value/)
  t.same(combineFilters([]), undefined)
  t.same(combineFilters([{ a: ['eq', 1] }]), { a: ['eq', 1] })
  t.same(combineFilters([{ a: ['eq', 1] }, { b: ['eq', 2] }]), { and: [{ a: ['eq', 1] }, { b: ['eq', 2] }] })
})

t.test('sort', async (t) => {
  t.same(parseSort('hostname'), { column: 'hostname', order: 'asc' })
  t.same(parseSort('hostname:desc'), { column: 'hostname', order: 'desc' })
  t.same(parseSort('-mtu'), { column: 'mtu', order: 'desc' })
  t.throws(() => parseSort('mtu:down'), /is not column, column:asc, column:desc or -column/)
  t.throws(() => parseSort(''), /is not column/)
})
