import t from 'tap'
import { readFileSync } from 'node:fs'
import { STORED_TABLES, TABLES, findColumn, findTable, storageDdl, storageName } from '../../../src/inventory/catalog/index.js'

/** COMPAT.md's "Main tables and columns", verbatim. */
const COMPAT: Record<string, string> = {
  'inventory/devices':
    'id, sn, snHw, hostname, siteName, vendor, family, platform, model, version, image, devType, loginIp, loginType, mac, uptime, reload, memoryTotalBytes, memoryUsedBytes, memoryUtilization, processor, fqdn, domain, stpDomain, configReg, objectId, taskKey, slug',
  'inventory/interfaces':
    'id, sn, hostname, siteName, intName, nameOriginal, dscr, l1, l2, reason, errDisabled, speed, speedValue, speedType, duplex, media, mtu, mac, primaryIp, hasTransceiver, transceiverType, loginIp',
  'inventory/sites': 'id, siteName, devicesCount, routersCount, switchesCount, networksCount, usersCount, vlanCount',
  'inventory/pn': 'id, sn, deviceSn, hostname, siteName, name, dscr, pid, vid, vendor, platform, model',
  'inventory/summary/vendors': 'id, vendor, devicesCount',
  'inventory/summary/platforms': 'id, platform, devicesCount',
  'inventory/summary/models': 'id, model, devicesCount',
  'addressing/arp': 'id, sn, hostname, siteName, intName, ip, mac, vlanId, vrf, proxy, vendor',
  'addressing/mac': 'id, sn, hostname, siteName, intName, mac, vlan, edge, user, vendor, type, source',
  'addressing/managed-devs': 'id, sn, hostname, siteName, intName, ip, net, mac, vlanId, vrf, type, stateL1, stateL2, dnsName',
  'addressing/hosts': 'id, ip, mac, vlan, vrf, dnsName, siteName, edges, gateways, type, vendor',
  'networks/routes': 'id, sn, hostname, siteName, vrf, network, prefix, protocol, nexthop, nhCount',
  'vlan/device': 'id, sn, hostname, siteName, vlanId, vlanName, status, stpDomain',
  'neighbors/all': 'id, localSn, localHost, localInt, remoteSn, remoteHost, remoteInt, remoteIp, protocols, siteName',
  'interfaces/switchports': 'id, sn, hostname, siteName, intName, dscr, mode, accVlan, nativeVlan, trunkVlan, voiceVlan',
  'routing/protocols/bgp/neighbors':
    'id, sn, hostname, siteName, vrf, localAs, localAddress, neiHostname, neiAddress, neiAs, state, currStateTime, totalReceivedPrefixes',
  'management/snapshots':
    'id, status, finishStatus, loading, loadedSize, unloadedSize, fromArchive, isLastSnapshot, name, note, sites, locked, totalDevCount, deviceAddedCount, deviceRemovedCount, interfaceCount, interfaceActiveCount, interfaceEdgeCount, userCount, tsStart, tsEnd, tsChange, creatorUsername',
  jobs: 'id, name, status, isDone, snapshot, scheduledAt, startedAt, finishedAt, username',
}

/** What the 6.0.x SDK's snapshot model requests from management/snapshots (all required). */
const SDK_SNAPSHOT_COLUMNS =
  'id, status, finishStatus, loadedSize, unloadedSize, name, note, sites, fromArchive, loading, locked, deviceAddedCount, deviceRemovedCount, interfaceActiveCount, interfaceCount, interfaceEdgeCount, totalDevCount, isLastSnapshot, tsChange, tsEnd, tsStart, userCount'

/**
 * Tables clients of this API family call beyond COMPAT's main list, with the columns their
 * requests and intent rules name (e.g. the SDK's examples, the built-in rules' columns).
 */
const CALLED: Record<string, string> = {
  'inventory/summary/families': 'id, family, devicesCount',
  'inventory/sites': 'siteKey',
  'inventory/phones': 'id, sn, hostname, siteName, intName, ip, mac',
  'inventory/fans': 'id, sn, hostname, siteName, fanState',
  'inventory/modules': 'id, sn, hostname, siteName, moduleState',
  'inventory/power-supplies': 'id, sn, hostname, siteName, pwSupplyState',
  'vlan/device-summary': 'id, sn, hostname, siteKey, siteName, totalVlanCount, activeVlanCount',
  'vlan/site-summary': 'id, siteName, vlanName, vlanId',
  'vlan/network-summary': 'id, vlanId, vlanName',
  'vlan/l3-gateways': 'id, sn, hostname, siteName, vlanId, intName',
  'neighbors/unmanaged': 'id, localHost, localInt, siteName',
  'neighbors/unidirectional': 'id, localHost, localInt, remoteHost, remoteInt',
  'neighbors/endpoints': 'id, localHost, localInt, siteName',
  'interfaces/load': 'id, sn, hostname, siteName, intName',
  'interfaces/errors/disabled': 'id, sn, hostname, siteName, intName, errorReason',
  'interfaces/errors/bidirectional': 'id, sn, hostname, siteName, intName, impactErr',
  'interfaces/drops/bidirectional': 'id, sn, hostname, siteName, intName, impactDrops',
  'interfaces/duplex': 'id, sn, hostname, intName, status',
  networks: 'id, net, vrf, siteName',
  'networks/ipv6-routes': 'id, sn, hostname, siteName, vrf, network, prefix, protocol, nexthop, nhCount',
  'addressing/duplicate-ip': 'id, ip, sn, hostname, intName, count',
  'routing/protocols/ospf/neighbors': 'id, sn, hostname, siteName, state, currStateTime, localCost, neiCost',
  'interfaces/port-channel/member-status': 'id, sn, hostname, intName, members',
  'fhrp/group-state': 'id, sn, hostname, intName, priority, state',
  'spanning-tree/bridges': 'id, sn, hostname, mode',
  'vrf/summary': 'id, vrf',
  'vrf/detail': 'id, sn, hostname, vrf',
  'vrf/interfaces': 'id, sn, hostname, vrf, intName',
  'management/osver-consistency': 'id, platform, version, count, pct',
  'management/configuration': 'id, sn, hostname, lastChangeAt, lastCheckAt, status, hash',
  'reports/eof/summary': 'id, endSale, endMaintenance, endSupport',
  'global-attributes': 'id, sn, name, value',
  'snapshot-attributes': 'id, sn, name, value',
}

/** Tables the catalog adds as the source of the ones above. */
const SOURCES = ['interfaces/counters', 'management/configuration/saved', 'reports/eof/detail']

/** Every table path of the 6.0.9 Python SDK (test/fixtures/sdk-6.0.9-tables.json; checked in test/inventory/catalog/sdk-tables.test.ts). */
const SDK_PATHS = Object.keys((JSON.parse(readFileSync(new URL('../../fixtures/sdk-6.0.9-tables.json', import.meta.url), 'utf8')) as { tables: Record<string, string[]> }).tables).map((p) =>
  p.replace(/^tables\//, ''),
)

/**
 * Tables beyond the 6.0.9 SDK's: ours about a discovery itself, and the API family's IPv6 end
 * hosts (`addressing/ipv6-hosts`, in later SDKs' table lists), which path lookup starts from.
 */
const OWN_TABLES = ['discovery/connectivity-report', 'addressing/ipv6-hosts']

/** The v4-era camelCase names of /api/v1/ (e.g. the product's 4.x endpoint list). */
const V4_NAMES: Record<string, string> = {
  'addressing/managedDevs': 'addressing/managed-devs',
  'addressing/duplicateIp': 'addressing/duplicate-ip',
  'inventory/powerSupplies': 'inventory/power-supplies',
  'vlan/deviceSummary': 'vlan/device-summary',
  'vlan/siteSummary': 'vlan/site-summary',
  'vlan/networkSummary': 'vlan/network-summary',
  'fhrp/groupState': 'fhrp/group-state',
  'spanningTree/bridges': 'spanning-tree/bridges',
  'management/osverConsistency': 'management/osver-consistency',
}

t.test('every COMPAT table and column is in the catalog', async (t) => {
  for (const [path, list] of Object.entries(COMPAT)) {
    const table = findTable(path)
    if (!table) {
      t.fail(`missing table ${path}`)
      continue
    }
    for (const name of list.split(', ')) t.ok(findColumn(table, name), `${path} has ${name}`)
  }
  const snapshots = findTable('management/snapshots')!
  t.same(SDK_SNAPSHOT_COLUMNS.split(', ').filter((c) => !findColumn(snapshots, c)), [], 'every column the 6.0 SDK requests')
})

t.test('the tables clients call, and nothing else', async (t) => {
  for (const [path, list] of Object.entries(CALLED)) {
    const table = findTable(path)
    if (!table) {
      t.fail(`missing table ${path}`)
      continue
    }
    t.same(list.split(', ').filter((name) => !findColumn(table, name)), [], `${path} has ${list}`)
  }
  const known = new Set([...Object.keys(COMPAT), ...Object.keys(CALLED), ...SOURCES, ...OWN_TABLES, ...SDK_PATHS])
  t.same(TABLES.map((x) => x.path).filter((p) => !known.has(p)), [], 'no table nobody asked for')
  for (const [v4, path] of Object.entries(V4_NAMES)) t.equal(findTable(v4), findTable(path), `${v4} is ${path}`)
})

t.test('catalog invariants', async (t) => {
  for (const table of TABLES) {
    const names = table.columns.map((c) => c.name)
    t.equal(new Set(names).size, names.length, `${table.path}: unique column names`)
    t.equal(findColumn(table, 'id')?.type, 'string', `${table.path}: string id`)
    t.ok(findColumn(table, table.defaultSort.column), `${table.path}: default sort column exists`)
    for (const idx of table.indexes) for (const c of idx) t.ok(findColumn(table, c), `${table.path}: index column ${c} exists`)
    for (const c of table.columns) {
      t.ok(c.description.length > 10, `${table.path}.${c.name} described`)
      t.match(c.name, /^[a-z][a-zA-Z0-9]*$/, `${table.path}.${c.name} camelCase`)
    }
    t.match(table.path, /^[a-z0-9/-]+$/, `${table.path} is kebab-case`)
    t.match(table.webPath, /^\//)
    if (table.source.kind === 'derived' && table.snapshotScoped) t.match(table.source.sql, /snapshot_id/, `${table.path} exposes snapshot_id`)
  }
  t.equal(findTable('addressing/managedDevs'), findTable('addressing/managed-devs'), 'legacy camelCase path')
  t.equal(findTable('/inventory/devices/'), findTable('inventory/devices'))
  t.equal(findTable('nope/nothing'), undefined)
  t.equal(storageName('memoryTotalBytes'), 'memory_total_bytes')
  t.equal(storageName('l1'), 'l1')
})

t.test('storage DDL covers every stored table', async (t) => {
  const ddl = storageDdl()
  t.equal(ddl.length, STORED_TABLES.length)
  for (const sql of ddl) t.match(sql, /PARTITION BY LIST \(snapshot_id\)$/)
  t.match(ddl.join('\n'), /"primary_ip" inet/)
  t.match(ddl.join('\n'), /"nexthop" jsonb/)
  t.match(ddl.join('\n'), /"network" cidr/)
})
