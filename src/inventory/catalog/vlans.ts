/**
 * VLAN summaries (computed from vlan/device when a snapshot is loaded), the layer 3 interfaces of
 * VLANs (a view of addressing/managed-devs) and the spanning-tree bridges and ports.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const VLAN_DEVICE_SUMMARY: StoredTableDef = {
  path: 'vlan/device-summary',
  legacyPaths: ['vlan/deviceSummary'],
  title: 'VLANs per device: summary',
  description: 'Number of VLANs configured on every switch, computed from vlan/device when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.vlan_device_summary',
    compute: [
      'SELECT v.sn AS id, v.sn, v.hostname, s.id AS site_key, v.site_name, v.total_vlan_count, v.active_vlan_count FROM (SELECT sn, hostname, site_name,',
      "count(*)::bigint AS total_vlan_count, (count(*) FILTER (WHERE status = 'active'))::bigint AS active_vlan_count FROM {inventory.vlans} GROUP BY sn, hostname, site_name) v",
      'LEFT JOIN {inventory.sites} s ON s.site_name = v.site_name',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'Serial number of the switch (unique per snapshot).'),
    ...deviceColumns().slice(0, 2),
    col('siteKey', 'string', 'Key of the site (inventory/sites siteKey).'),
    col('siteName', 'string', 'Site the device belongs to.'),
    col('totalVlanCount', 'integer', 'Number of VLANs configured on the switch.'),
    col('activeVlanCount', 'integer', 'Number of those VLANs in state active.'),
  ],
  key: ['sn'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['sn']],
  webPath: '/technology/vlans/device-summary',
}

export const VLAN_SITE_SUMMARY: StoredTableDef = {
  path: 'vlan/site-summary',
  legacyPaths: ['vlan/siteSummary'],
  title: 'VLANs per site',
  description: 'Every VLAN id configured at a site, with its most common name and the switches that carry it, computed from vlan/device when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.vlan_site_summary',
    compute: [
      "SELECT site_name || '/' || vlan_id AS id, site_name, vlan_id, mode() WITHIN GROUP (ORDER BY vlan_name) AS vlan_name,",
      "count(*)::bigint AS dev_count, (count(*) FILTER (WHERE status = 'active'))::bigint AS active_dev_count",
      'FROM {inventory.vlans} GROUP BY site_name, vlan_id',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The site/VLAN id the row describes (unique per snapshot).'),
    col('siteName', 'string', 'Site the VLAN is configured at.'),
    col('vlanId', 'integer', 'VLAN id (1–4094).'),
    col('vlanName', 'string', 'Most common name of the VLAN among the switches of the site (the alphabetically first on a tie).'),
    col('devCount', 'integer', 'Number of switches of the site the VLAN is configured on.'),
    col('activeDevCount', 'integer', 'Number of those switches where the VLAN is active.'),
    col('dscr', 'string', 'VLAN description apart from its name; the switches netinv reads report only the name (vlanName): always null.', { sql: 'NULL::text' }),
  ],
  key: ['siteName', 'vlanId'],
  defaultSort: { column: 'siteName', order: 'asc' },
  indexes: [['siteName', 'id'], ['vlanId']],
  webPath: '/technology/vlans/site-summary',
}

export const VLAN_NETWORK_SUMMARY: StoredTableDef = {
  path: 'vlan/network-summary',
  legacyPaths: ['vlan/networkSummary'],
  title: 'VLANs across the network',
  description: 'Every VLAN id of the network with its most common name and where it is configured, computed from vlan/device when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.vlan_network_summary',
    compute: [
      'SELECT vlan_id::text AS id, vlan_id, mode() WITHIN GROUP (ORDER BY vlan_name) AS vlan_name,',
      'count(DISTINCT site_name)::bigint AS site_count, count(*)::bigint AS dev_count FROM {inventory.vlans} GROUP BY vlan_id',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The VLAN id as text (unique per snapshot).'),
    col('vlanId', 'integer', 'VLAN id (1–4094).'),
    col('vlanName', 'string', 'Most common name of the VLAN among all switches (the alphabetically first on a tie).'),
    col('siteCount', 'integer', 'Number of sites where the VLAN is configured.'),
    col('devCount', 'integer', 'Number of switches the VLAN is configured on.'),
  ],
  key: ['vlanId'],
  defaultSort: { column: 'vlanId', order: 'asc' },
  indexes: [['vlanId']],
  webPath: '/technology/vlans/network-summary',
}

export const VLAN_L3_GATEWAYS: TableDef = {
  path: 'vlan/l3-gateways',
  legacyPaths: ['vlan/l3Gateways'],
  title: 'VLAN layer 3 interfaces',
  description: 'Addressed VLAN interfaces (SVI, IRB, BDI) of every device: the layer 3 presence of each VLAN, computed from addressing/managed-devs (primary addresses).',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: "SELECT snapshot_id, id, sn, hostname, site_name, vlan_id, int_name, ip, net, vrf, state_l1, state_l2 FROM inventory.managed_devs WHERE vlan_id IS NOT NULL AND type = 'primary'",
  },
  columns: [
    idColumn('address (the id of its addressing/managed-devs row)'),
    ...deviceColumns(),
    col('vlanId', 'integer', 'VLAN the interface routes.'),
    col('intName', 'string', 'VLAN interface, e.g. Vl10, irb.10, BDI10.'),
    col('ip', 'ip', 'Primary address of the interface.'),
    col('net', 'network', 'Network of the address.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('stateL1', 'string', 'Layer 1 state of the interface.', { values: ['up', 'down', 'admin-down', 'err-disabled'] }),
    col('stateL2', 'string', 'Layer 2 state of the interface.', { values: ['up', 'down'] }),
  ],
  key: ['sn', 'intName', 'ip'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/vlans/l3-gateways',
}

/** Roles and states of a spanning-tree port, as spanning-tree/ports and spanning-tree/neighbors name them. */
export const STP_PORT_ROLES = ['root', 'designated', 'alternate', 'backup', 'disabled', 'boundary', 'master'] as const
export const STP_PORT_STATES = ['disabled', 'blocking', 'listening', 'learning', 'forwarding', 'broken'] as const

export const STP_BRIDGES: StoredTableDef = {
  path: 'spanning-tree/bridges',
  legacyPaths: ['spanningTree/bridges'],
  title: 'Spanning-tree bridges',
  description: 'Spanning-tree configuration of every switch: mode, bridge priority and the root it sees.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_bridges' },
  columns: [
    idColumn('bridge'),
    ...deviceColumns(),
    col('stpDomain', 'string', 'Spanning-tree domain the switch belongs to (switches that share a root), as in inventory/devices.'),
    col('mode', 'string', 'Spanning-tree mode.', { values: ['rpvst', 'pvst', 'mstp', 'rstp', 'disabled'] }),
    col('priority', 'integer', 'Bridge priority (of VLAN 1 or the CIST), null when disabled.'),
    col('bridgeId', 'string', 'Bridge id: priority and base MAC address, e.g. "4096.001e.7a00.0400"; null when disabled.'),
    col('rootId', 'string', 'Bridge id of the root the switch sees, null when disabled.'),
    col('isRoot', 'boolean', 'Whether the switch is the root bridge of its domain.'),
  ],
  key: ['sn', 'stpDomain'],
  nullableKey: ['stpDomain'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['stpDomain']],
  webPath: '/technology/spanning-tree/stp-bridges',
}

export const STP_PORTS: StoredTableDef = {
  path: 'spanning-tree/ports',
  title: 'Spanning-tree ports',
  description: 'Every bridge port in each spanning tree of a switch: its state, its role, its cost and the designated bridge of its segment; a row per VLAN on per-VLAN switches (each VLAN\'s tree as the switch reports it), of the CIST on MSTP ones.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_ports' },
  columns: [
    idColumn('spanning-tree port'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface of the bridge port.'),
    col('vlanId', 'integer', 'VLAN of the tree the row describes on per-VLAN switches (pvst, rpvst); null otherwise.'),
    col('instance', 'integer', 'Spanning-tree instance of the row: 0 (the CIST) on MSTP switches; null otherwise.'),
    col('portRole', 'string', 'Role of the port: in an MSTI as the switch reports it (with an MST region\'s master and boundary ports on Cisco switches), elsewhere derived from its state and designated bridge by the standard rules (docs/discovery.md); null when the rules do not place it (a port in transition).', {
      values: STP_PORT_ROLES,
    }),
    col('portStatus', 'string', 'Spanning-tree state of the port.', { values: STP_PORT_STATES }),
    col('portCost', 'integer', 'Path cost of the port.'),
    col('portPriority', 'integer', 'Port priority.'),
    col('designatedRoot', 'string', 'Bridge id of the root the port\'s segment sees, e.g. "4096.001e.7a00.0400".'),
    col('designatedCost', 'integer', 'Path cost to the root of the designated port of the segment.'),
    col('designatedBridge', 'string', 'Bridge id of the designated bridge of the segment (the switch itself on its designated ports).'),
    col('designatedPort', 'string', 'Port id of the designated port of the segment, as "priority.number", e.g. "128.1".'),
    col('edge', 'boolean', 'Whether the port is an operational edge port (RSTP-MIB); null where the switch does not say.'),
    col('p2p', 'boolean', 'Whether the port\'s link is operationally point-to-point (RSTP-MIB); null where the switch does not say.'),
  ],
  key: ['sn', 'intName', 'vlanId', 'instance'],
  nullableKey: ['vlanId', 'instance'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id'], ['portRole']],
  positions: ['hostname'],
  webPath: '/technology/spanning-tree/ports',
}

export const STP_VLANS: StoredTableDef = {
  path: 'spanning-tree/vlans',
  title: 'Spanning-tree VLANs',
  description:
    'The spanning tree of each VLAN of a per-VLAN switch (pvst, rpvst): the switch\'s bridge id in it, the root it sees, whether it is that root, its root port and path cost, and how many of its ports forward and block. Switches running one tree for all VLANs (rstp) or MSTP instances have no rows here: their tree is in spanning-tree/bridges.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_vlans' },
  columns: [
    idColumn('VLAN\'s tree on a switch'),
    ...deviceColumns(),
    col('vlanId', 'integer', 'VLAN of the tree.'),
    col('vlanName', 'string', 'Name of the VLAN on the switch, null where it has none.'),
    col('priority', 'integer', 'Bridge priority of the switch in the VLAN (with the VLAN added, as Cisco\'s extended system id does).'),
    col('bridgeId', 'string', 'Bridge id of the switch in the VLAN: priority and base MAC address, e.g. "32778.001b.d4a1.b200".'),
    col('rootId', 'string', 'Bridge id of the root of the VLAN\'s tree the switch sees.'),
    col('isRoot', 'boolean', 'Whether the switch is the root of the VLAN\'s tree.'),
    col('rootPort', 'string', 'Port toward the root, null on the root.'),
    col('rootCost', 'integer', 'Path cost from the switch to the root, 0 on the root.'),
    col('forwardingPorts', 'integer', 'Ports of the tree forwarding.'),
    col('blockingPorts', 'integer', 'Ports of the tree blocking (alternate and backup ports).'),
  ],
  key: ['sn', 'vlanId'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'vlanId', 'id'], ['rootId']],
  webPath: '/technology/spanning-tree/vlans',
}

export const STP_INSTANCES: StoredTableDef = {
  path: 'spanning-tree/instances',
  title: 'Spanning-tree instances',
  description:
    'The instances of every MSTP switch: the CIST (instance 0) and each MSTI, with the VLANs mapped to it, the switch\'s MST region, its bridge id in the instance, the root it sees, whether it is that root, its root port and path cost, and how many of its ports forward and block. Switches running a tree per VLAN have theirs in spanning-tree/vlans; one tree for all VLANs (rstp) is in spanning-tree/bridges.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_instances' },
  columns: [
    idColumn('instance on a switch'),
    ...deviceColumns(),
    col('instance', 'integer', 'Instance: 0 for the CIST, 1–4094 for an MSTI.'),
    col('vlans', 'string', 'VLANs mapped to the instance as ranges, e.g. "10,20-29" (the CIST: the switch\'s VLANs that no MSTI has); null when none.'),
    col('regionName', 'string', 'Name of the switch\'s MST region, null where the switch does not say.'),
    col('revision', 'integer', 'Revision level of the MST region configuration.'),
    col('priority', 'integer', 'Bridge priority of the switch in the instance (with the instance added, as the system id extension does).'),
    col('bridgeId', 'string', 'Bridge id of the switch in the instance, e.g. "32769.001c.7300.0a00".'),
    col('rootId', 'string', 'Bridge id of the root the switch sees: the CIST root for instance 0, the MSTI\'s regional root for the others.'),
    col('isRoot', 'boolean', 'Whether the switch is that root; null where the switch does not say (a Cisco switch\'s MSTI without a root port).'),
    col('rootPort', 'string', 'Port toward the root, null on the root.'),
    col('rootCost', 'integer', 'Path cost from the switch to the root, 0 on the root.'),
    col('forwardingPorts', 'integer', 'Ports of the instance forwarding; null where the switch reports no port states (a Cisco switch\'s MSTI).'),
    col('blockingPorts', 'integer', 'Ports of the instance blocking (alternate and backup ports).'),
  ],
  key: ['sn', 'instance'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'instance', 'id'], ['rootId']],
  webPath: '/technology/spanning-tree/instances',
}

export const STP_TOPOLOGY: StoredTableDef = {
  path: 'spanning-tree/topology',
  title: 'Spanning-tree stability',
  description:
    'How stable each spanning tree of each switch is: the topology changes it has seen since it started and how long before the discovery the last one was (a row per tree, as spanning-tree/ports has them: per VLAN on per-VLAN switches, per instance on MSTP ones). A tree that changes often is a port flapping or an edge port without edge configuration.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_topology' },
  columns: [
    idColumn('tree of a switch'),
    ...deviceColumns(),
    col('vlanId', 'integer', 'VLAN of the tree on per-VLAN switches; null otherwise.'),
    col('instance', 'integer', 'Instance of the tree on MSTP switches (0: the CIST); null otherwise.'),
    col('topologyChanges', 'integer', 'Topology changes the switch has seen in the tree since it started; null where it does not say.'),
    col('secondsSinceChange', 'integer', 'Seconds from the last topology change to the discovery; null where the switch does not say. Volatile: it grows between discoveries of an unchanged network.'),
  ],
  key: ['sn', 'vlanId', 'instance'],
  nullableKey: ['vlanId', 'instance'],
  volatile: ['secondsSinceChange'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id']],
  webPath: '/technology/spanning-tree/topology',
}

export const STP_GUARDS: StoredTableDef = {
  path: 'spanning-tree/guards',
  title: 'Spanning-tree guards',
  description:
    'The spanning-tree protections of every bridge port of a switch that reports them (Cisco\'s CISCO-STP-EXTENSIONS-MIB): PortFast (an edge port from the start), BPDU guard and filter, root guard and loop guard, as they apply to the port (a port left at the default takes the switch-wide setting). An access port without BPDU guard, or an uplink to a switch that must never become root without root guard, reads here.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.stp_guards' },
  columns: [
    idColumn('port'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface of the bridge port.'),
    col('portFast', 'boolean', 'Whether PortFast is on (an edge port from the start); null where the switch does not say.'),
    col('bpduGuard', 'boolean', 'Whether BPDU guard is on (a BPDU received shuts the port down).'),
    col('bpduFilter', 'boolean', 'Whether BPDU filter is on (BPDUs neither sent nor received).'),
    col('rootGuard', 'boolean', 'Whether root guard is on (a superior BPDU blocks the port instead of making its sender root).'),
    col('loopGuard', 'boolean', 'Whether loop guard is on (a non-designated port that stops receiving BPDUs blocks instead of forwarding).'),
  ],
  key: ['sn', 'intName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id']],
  webPath: '/technology/spanning-tree/guards',
}

export const VLAN_TABLES: readonly TableDef[] = [VLAN_DEVICE_SUMMARY, VLAN_SITE_SUMMARY, VLAN_NETWORK_SUMMARY, VLAN_L3_GATEWAYS, STP_BRIDGES, STP_PORTS, STP_VLANS, STP_INSTANCES, STP_TOPOLOGY, STP_GUARDS]
