/**
 * Gateway redundancy: each managed network with the gateways its hosts can use, the interface
 * addresses of discovered devices in it (addressing/managed-devs) and the virtual addresses of
 * the FHRP groups in it (fhrp/group-state), and the hosts seen in it (addressing/hosts); computed
 * when the snapshot is loaded (after networks), so that a filter on the counts reads stored values.
 */
import { col } from './columns.js'
import type { StoredTableDef } from './types.js'

/**
 * Each step joins on equal values only, as a snapshot's tables have no index while its computed
 * tables are filled (a subquery per network took minutes on the "large" profile).
 */

/** The interface addresses of each network's devices (FHRP virtual addresses left out, as the networks table leaves them out). */
const GW = [
  "SELECT m.site_name, m.vrf, m.net, array_agg(DISTINCT m.ip ORDER BY m.ip) AS gw FROM {inventory.managed_devs} m WHERE m.type <> 'virtual'",
  'GROUP BY m.site_name, m.vrf, m.net',
].join(' ')

/** The virtual addresses of the FHRP groups of each network: groups on an interface with an address in a network holding the virtual address. */
const GW_V = [
  'SELECT m.site_name, m.vrf, m.net, array_agg(DISTINCT f.virtual_ip ORDER BY f.virtual_ip) AS gw_v',
  "FROM {inventory.fhrp_groups} f JOIN {inventory.managed_devs} m ON m.sn = f.sn AND m.int_name = f.int_name AND m.type <> 'virtual'",
  'WHERE f.virtual_ip << m.net GROUP BY m.site_name, m.vrf, m.net',
].join(' ')

/** Hosts per VRF and network: each host's address cut to every prefix length a network of its family has. */
const HOSTS = [
  'SELECT h.vrf, network(set_masklen(h.ip, l.len)) AS net, count(*)::bigint AS hosts FROM {inventory.hosts} h',
  'JOIN (SELECT DISTINCT family(net) AS fam, masklen(net) AS len FROM {inventory.networks}) l ON l.fam = family(h.ip)',
  'GROUP BY h.vrf, network(set_masklen(h.ip, l.len))',
].join(' ')

export const GATEWAY_REDUNDANCY: StoredTableDef = {
  path: 'networks/gateway-redundancy',
  title: 'Gateway redundancy',
  description:
    'Every managed network (as in tables/networks: per site and VRF) with its gateways, computed when the snapshot is loaded: the interface addresses of discovered devices in it (addressing/managed-devs), the virtual addresses of the FHRP groups in it (fhrp/group-state), and the number of hosts seen in it (addressing/hosts).',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.gateway_redundancy',
    compute: [
      'SELECT n.id, n.net, masklen(n.net)::bigint AS mask, n.vrf, n.site_name, n.vlan_id,',
      "coalesce(g.gw, '{}') AS gw, coalesce(cardinality(g.gw), 0)::bigint AS gwcount, coalesce(v.gw_v, '{}') AS gw_v, coalesce(cardinality(v.gw_v), 0)::bigint AS gwcount_v,",
      'coalesce(h.hosts, 0)::bigint AS hosts FROM {inventory.networks} n',
      `LEFT JOIN (${GW}) g ON g.site_name = n.site_name AND g.vrf = n.vrf AND g.net = n.net`,
      `LEFT JOIN (${GW_V}) v ON v.site_name = n.site_name AND v.vrf = n.vrf AND v.net = n.net`,
      `LEFT JOIN (${HOSTS}) h ON h.vrf = n.vrf AND h.net = n.net`,
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The site/VRF/network the row describes (the id of its tables/networks row).'),
    col('net', 'network', 'The network (address and prefix length).'),
    col('mask', 'integer', 'Prefix length of the network as a whole number of bits (24 for 10.1.2.0/24, 64 for an IPv6 /64), as the prefix of networks/routes; never a dotted mask.'),
    col('vrf', 'string', 'VRF of the network (empty string for the global table).'),
    col('siteName', 'string', 'Site whose devices hold addresses in the network.'),
    col('vlanId', 'integer', 'VLAN of the network when it sits on VLAN interfaces, null for routed links and loopbacks.'),
    col('gw', 'ipArray', "Interface addresses of the site's discovered devices in the network (FHRP virtual addresses left out)."),
    col('gwcount', 'integer', 'Number of those addresses.'),
    col('gwV', 'ipArray', "Virtual addresses of the FHRP groups (fhrp/group-state) that run on an interface of the site's devices with an address in the network and lie in it."),
    col('gwcountV', 'integer', 'Number of those virtual addresses.'),
    col('hosts', 'integer', 'Number of hosts of addressing/hosts with an address in the network, in its VRF.'),
  ],
  key: ['siteName', 'vrf', 'net'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'net', order: 'asc' },
  indexes: [['net', 'id'], ['siteName']],
  webPath: '/technology/networks/gateway-redundancy',
}
