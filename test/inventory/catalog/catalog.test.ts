import t from 'tap'
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
    'id, status, finishStatus, loading, isLastSnapshot, name, note, sites, locked, totalDevCount, deviceAddedCount, deviceRemovedCount, interfaceCount, tsStart, tsEnd, tsChange, creatorUsername',
  jobs: 'id, name, status, isDone, snapshot, scheduledAt, startedAt, finishedAt, username',
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
  t.equal(TABLES.length, Object.keys(COMPAT).length, 'no table beyond COMPAT')
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
