/** Every table of the API family that netinv does not collect, by technology (see table.ts). */
import type { TableDef } from '../types.js'
import { ADDRESSING_TABLES } from './addressing.js'
import { CLOUD_TABLES } from './cloud.js'
import { DHCP_TABLES } from './dhcp.js'
import { FHRP_TABLES } from './fhrp.js'
import { INTERFACES_TABLES } from './interfaces.js'
import { INVENTORY_TABLES } from './inventory.js'
import { LOAD_BALANCING_TABLES } from './load-balancing.js'
import { MANAGEMENT_TABLES } from './management.js'
import { MPLS_TABLES } from './mpls.js'
import { MULTICAST_TABLES } from './multicast.js'
import { PLATFORMS_TABLES } from './platforms.js'
import { QOS_TABLES } from './qos.js'
import { ROUTING_TABLES } from './routing.js'
import { SDN_TABLES } from './sdn.js'
import { SDWAN_TABLES } from './sdwan.js'
import { SECURITY_TABLES } from './security.js'
import { SPANNING_TREE_TABLES } from './spanning-tree.js'

export { NOT_COLLECTED } from './table.js'

export const UNCOLLECTED_TABLES: readonly TableDef[] = [
  ...ADDRESSING_TABLES,
  ...CLOUD_TABLES,
  ...DHCP_TABLES,
  ...FHRP_TABLES,
  ...INTERFACES_TABLES,
  ...INVENTORY_TABLES,
  ...LOAD_BALANCING_TABLES,
  ...MANAGEMENT_TABLES,
  ...MPLS_TABLES,
  ...MULTICAST_TABLES,
  ...PLATFORMS_TABLES,
  ...QOS_TABLES,
  ...ROUTING_TABLES,
  ...SDN_TABLES,
  ...SDWAN_TABLES,
  ...SECURITY_TABLES,
  ...SPANNING_TREE_TABLES,
]
