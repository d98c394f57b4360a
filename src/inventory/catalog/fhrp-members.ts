/**
 * FHRP group members: each first-hop redundancy group with the devices that take part in it,
 * from fhrp/group-state, computed when the snapshot is loaded (the VRF of each member comes from
 * addressing/managed-devs, a join too costly on every request of a large snapshot).
 */
import { col } from './columns.js'
import type { StoredTableDef } from './types.js'

/** The group-state rows with the VRF of their interface (from its addresses in addressing/managed-devs). */
const MEMBERS_WITH_VRF = [
  'SELECT f.*, m.vrf FROM {inventory.fhrp_groups} f LEFT JOIN (SELECT sn, int_name, min(vrf) AS vrf FROM {inventory.managed_devs}',
  'WHERE (sn, int_name) IN (SELECT sn, int_name FROM {inventory.fhrp_groups}) GROUP BY sn, int_name) m ON m.sn = f.sn AND m.int_name = f.int_name',
].join(' ')

export const FHRP_GROUP_MEMBERS: StoredTableDef = {
  path: 'fhrp/group-members',
  title: 'FHRP group members',
  description:
    'Every first hop redundancy group (protocol, group number, VRF and virtual address) with the devices whose interfaces take part in it, computed from fhrp/group-state when the snapshot is loaded; the VRF is that of the interface in addressing/managed-devs.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.fhrp_group_members',
    compute: [
      "SELECT concat_ws('/', g.protocol, g.group_id, g.vrf, host(g.virtual_ip)) AS id, g.protocol, g.group_id, g.vrf,",
      'CASE WHEN family(g.virtual_ip) = 4 THEN g.virtual_ip END AS virtual_ip, CASE WHEN family(g.virtual_ip) = 6 THEN g.virtual_ip END AS virtual_ipv6,',
      'count(*)::bigint AS count,',
      "jsonb_agg(jsonb_build_object('sn', g.sn, 'hostname', g.hostname, 'siteName', g.site_name, 'intName', g.int_name, 'state', g.state, 'priority', g.priority, 'preempt', g.preempt)",
      'ORDER BY g.hostname, g.int_name) AS devices',
      `FROM (${MEMBERS_WITH_VRF}) g GROUP BY g.protocol, g.group_id, g.vrf, g.virtual_ip`,
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'Protocol/group/VRF/virtual address of the group (unique per snapshot).'),
    col('protocol', 'string', 'Redundancy protocol.', { values: ['hsrp', 'vrrp', 'glbp'] }),
    col('groupId', 'integer', 'Group number.'),
    col('vrf', 'string', "VRF of the members' interfaces (empty string for the global table), null when the interface has no address in addressing/managed-devs."),
    col('virtualIp', 'ip', 'Virtual IPv4 address of the group, null for an IPv6 group.'),
    col('virtualIpv6', 'ip', 'Virtual IPv6 address of the group, null for an IPv4 group.'),
    col('count', 'integer', 'Number of member interfaces.'),
    col('devices', 'json', 'The members: sn, hostname, siteName, intName, state, priority and preempt of each, as in fhrp/group-state.', { unordered: true }),
  ],
  key: ['protocol', 'groupId', 'vrf', 'virtualIp', 'virtualIpv6'],
  nullableKey: ['vrf', 'virtualIp', 'virtualIpv6'],
  defaultSort: { column: 'id', order: 'asc' },
  indexes: [['id'], ['virtualIp'], ['virtualIpv6']],
  webPath: '/technology/fhrp/group-members',
}
