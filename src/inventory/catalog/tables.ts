/** Every table of the API in catalog order (docs, GET tables), and the stored ones in load order. */
import { ATTRIBUTE_TABLES } from './attributes.js'
import { ADDRESSING_TABLES, ARP, HOSTS, MAC, MANAGED_DEVS } from './addressing.js'
import { CONSISTENCY_TABLES } from './consistency.js'
import { DISCOVERY_TABLES } from './discovery.js'
import { ENVIRONMENT_TABLES } from './environment.js'
import { INTERFACE_HEALTH_TABLES } from './interface-health.js'
import { DEVICES, INTERFACES, INVENTORY_TABLES, PART_NUMBERS, SITES } from './inventory.js'
import { LAYER2_TABLES, NEIGHBORS, SWITCHPORTS, VLANS } from './layer2.js'
import { MANAGEMENT_TABLES } from './management.js'
import { NEIGHBOR_TABLES } from './neighbors.js'
import { NETWORK_TABLES } from './networks.js'
import { BGP_NEIGHBORS, ROUTES, ROUTING_TABLES } from './routing.js'
import { VLAN_TABLES } from './vlans.js'
import { UNCOLLECTED_TABLES } from './uncollected/index.js'
import { INTERFACE_RATE_TABLES } from './interface-rates.js'
import { WIRELESS_TABLES } from './wireless.js'
import { OSPF_INTERFACES, OSPFV3_INTERFACES } from './ospf-interfaces.js'
import { STP_NEIGHBORS } from './stp-neighbors.js'
import { STP_INCONSISTENCY_TABLES } from './stp-inconsistencies.js'
import { PROTOCOL_SUMMARY_TABLES } from './protocol-summary.js'
import { IPV6_ADDRESSING_TABLES } from './ipv6-addressing.js'
import { FHRP_GROUP_MEMBERS } from './fhrp-members.js'
import { GATEWAY_REDUNDANCY } from './gateway-redundancy.js'
import { INTERFACE_MTU } from './mtu.js'
import { DISCOVERY_HISTORY } from './discovery-history.js'
import { TRANSCEIVER_STATISTICS } from './transceivers.js'
import type { StoredTableDef, TableDef } from './types.js'

export const TABLES: readonly TableDef[] = [
  ...INVENTORY_TABLES,
  ...ENVIRONMENT_TABLES,
  ...ADDRESSING_TABLES,
  ...IPV6_ADDRESSING_TABLES,
  ...ROUTING_TABLES,
  ...PROTOCOL_SUMMARY_TABLES,
  FHRP_GROUP_MEMBERS,
  ...NETWORK_TABLES,
  GATEWAY_REDUNDANCY,
  ...LAYER2_TABLES,
  ...VLAN_TABLES,
  STP_NEIGHBORS,
  ...STP_INCONSISTENCY_TABLES,
  ...NEIGHBOR_TABLES,
  ...INTERFACE_HEALTH_TABLES,
  TRANSCEIVER_STATISTICS,
  ...INTERFACE_RATE_TABLES,
  INTERFACE_MTU,
  OSPF_INTERFACES,
  OSPFV3_INTERFACES,
  ...WIRELESS_TABLES,
  ...CONSISTENCY_TABLES,
  ...DISCOVERY_TABLES,
  DISCOVERY_HISTORY,
  ...MANAGEMENT_TABLES,
  ...ATTRIBUTE_TABLES,
  ...UNCOLLECTED_TABLES,
]

/** Whether a table's rows are stored per snapshot (its source a table of the inventory schema). */
export function isStored(table: TableDef): table is StoredTableDef {
  return table.source.kind === 'stored'
}

/** The stored tables of the first release, in their order then. */
const FIRST: readonly StoredTableDef[] = [DEVICES, INTERFACES, SITES, PART_NUMBERS, ARP, MAC, MANAGED_DEVS, HOSTS, ROUTES, BGP_NEIGHBORS, VLANS, NEIGHBORS, SWITCHPORTS]

/**
 * The tables a snapshot stores rows in, in load order (and the order of snapshot files): those of
 * the first release in their order then, then those added later in catalog order.
 */
export const STORED_TABLES: readonly StoredTableDef[] = [
  ...FIRST,
  ...TABLES.filter((t): t is StoredTableDef => isStored(t) && !FIRST.includes(t)),
]
