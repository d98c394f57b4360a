/**
 * Collected tables a simulated snapshot has no rows in: the simulator models no wireless
 * controller, no IPv6 interface address or neighbour cache (only IPv6 routes), and no EIGRP,
 * IS-IS or RIP route, and of spanning tree only the tree of VLAN 1 (spanning-tree/ports), none per
 * VLAN, no MSTP instance, no topology change and no port protection, and no optics levels. Discovery tests cover them. Its networks are also consistent: no link
 * whose ends carry different VLANs, no spanning-tree port with several neighbours or BPDUs from
 * another bridge than its neighbour's; the
 * inconsistency tables have a hand-made snapshot of their own (catalog/stp-inconsistencies).
 */
export const UNSIMULATED: readonly string[] = [
  'wireless/controllers',
  'addressing/ipv6-managed-devs',
  'addressing/ipv6-neighbors',
  'addressing/ipv6-hosts',
  'networks/summary/protocols/eigrp',
  'networks/summary/protocols/isis',
  'networks/summary/protocols/rip',
  'spanning-tree/vlans',
  'spanning-tree/instances',
  'spanning-tree/topology',
  'spanning-tree/guards',
  'interfaces/transceivers/statistics',
  'spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch',
  'spanning-tree/inconsistencies/ports-multiple-neighbors',
  'spanning-tree/inconsistencies/stp-cdp-ports-mismatch',
]
