/** Platforms: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const PLATFORMS_TABLES: readonly TableDef[] = [
  uncollected({ path: 'platforms/cluster/srx', title: 'Juniper cluster', what: 'Juniper cluster.', columns: [['state', 'string', 'State as the device reports it.'], ['type', 'string', 'Type of the entry.']] }),
  uncollected({ path: 'platforms/fex/interfaces', title: 'Cisco FEX interfaces', what: 'Cisco FEX interfaces.', columns: [] }),
  uncollected({ path: 'platforms/fex/modules', title: 'Cisco FEX modules', what: 'Cisco FEX modules.', columns: [] }),
  uncollected({ path: 'platforms/mlag/pairs', title: 'MLAG pairs', what: 'MLAG pairs.', columns: [['primaryHostname', 'string', 'The primaryHostname column of this table in the API family.'], ['primaryStatus', 'string', 'The primaryStatus column of this table in the API family.'], ['secondaryStatus', 'string', 'The secondaryStatus column of this table in the API family.']] }),
  uncollected({ path: 'platforms/mlag/peers', title: 'MLAG peers', what: 'MLAG peers.', columns: [['role', 'string', 'Role of the device in the group.'], ['status', 'string', 'Status as the device reports it.']] }),
  uncollected({ path: 'platforms/mlag/switches', title: 'MLAG switches', what: 'MLAG switches.', columns: [] }),
  uncollected({ path: 'platforms/mlag/vpc', title: 'MLAG cisco VPC', what: 'MLAG cisco VPC.', columns: [['keepaliveStatus', 'string', 'The keepaliveStatus column of this table in the API family.'], ['role', 'string', 'Role of the device in the group.'], ['status', 'string', 'Status as the device reports it.']] }),
  uncollected({ path: 'platforms/poe/devices', title: 'POE devices', what: 'POE devices.', columns: [] }),
  uncollected({ path: 'platforms/poe/interfaces', title: 'POE interfaces', what: 'POE interfaces.', columns: [['oper', 'string', 'The oper column of this table in the API family.']] }),
  uncollected({ path: 'platforms/poe/modules', title: 'POE modules', what: 'POE modules.', columns: [['wattsUsedPct', 'number', 'The wattsUsedPct column of this table in the API family.']] }),
  uncollected({ path: 'platforms/stack/connections', title: 'Stacks stack ports', what: 'Stacks stack ports.', columns: [['status', 'string', 'Status as the device reports it.']] }),
  uncollected({ path: 'platforms/stack/members', title: 'Stacks members', what: 'Stacks members.', columns: [['uptime', 'integer', 'Uptime in seconds.']] }),
  uncollected({ path: 'platforms/stacks', title: 'Stacks', what: 'Stacks.', columns: [] }),
  uncollected({ path: 'platforms/vdc/devices', title: 'Cisco VDC devices', what: 'Cisco VDC devices.', columns: [] }),
  uncollected({ path: 'platforms/vss/chassis', title: 'Cisco VSS chassis', what: 'Cisco VSS chassis.', columns: [['fabricState', 'string', 'The fabricState column of this table in the API family.'], ['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'platforms/vss/overview', title: 'Platform cisco VSS', what: 'Platform cisco VSS.', columns: [] }),
  uncollected({ path: 'platforms/vss/vsl', title: 'Cisco VSS VSL', what: 'Cisco VSS VSL.', columns: [['portList', 'string', 'The portList column of this table in the API family.']] }),
]
