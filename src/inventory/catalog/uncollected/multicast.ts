/** Multicast: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const MULTICAST_TABLES: readonly TableDef[] = [
  uncollected({ path: 'multicast/igmp/groups', title: 'IGMP groups', what: 'IGMP groups.', columns: [['uptime', 'integer', 'Uptime in seconds.']] }),
  uncollected({ path: 'multicast/igmp/interfaces', title: 'IGMP interfaces', what: 'IGMP interfaces.', columns: [] }),
  uncollected({ path: 'multicast/igmp/snooping/global', title: 'IGMP snooping global config', what: 'IGMP snooping global config.', columns: [] }),
  uncollected({ path: 'multicast/igmp/snooping/groups', title: 'IGMP snooping groups', what: 'IGMP snooping groups.', columns: [] }),
  uncollected({ path: 'multicast/igmp/snooping/vlans', title: 'IGMP snooping vlans', what: 'IGMP snooping vlans.', columns: [] }),
  uncollected({ path: 'multicast/mac', title: 'MAC table', what: 'MAC table.', columns: [] }),
  uncollected({ path: 'multicast/pim/interfaces', title: 'Multicast PIM interfaces', what: 'Multicast PIM interfaces.', columns: [['neiCount', 'integer', 'Number of neighbours on the interface.']] }),
  uncollected({ path: 'multicast/pim/neighbors', title: 'PIM neighbors', what: 'PIM neighbors.', columns: [['uptime', 'integer', 'Uptime in seconds.']] }),
  uncollected({ path: 'multicast/pim/rp/bsr', title: 'Rp bsr', what: 'Rp bsr.', columns: [] }),
  uncollected({ path: 'multicast/pim/rp/mappings', title: 'Rp mappings', what: 'Rp mappings.', columns: [] }),
  uncollected({ path: 'multicast/pim/rp/mappings-groups', title: 'Rp mappings groups', what: 'Rp mappings groups.', columns: [] }),
  uncollected({ path: 'multicast/pim/rp/overview', title: 'Rp overview', what: 'Rp overview.', columns: [] }),
  uncollected({ path: 'multicast/routes/counters', title: 'Mroute counters', what: 'Mroute counters.', columns: [['otherErrRate', 'number', 'The otherErrRate column of this table in the API family.'], ['rpfErrRate', 'number', 'The rpfErrRate column of this table in the API family.']] }),
  uncollected({ path: 'multicast/routes/first-hop-router', title: 'Mroute first hop router', what: 'Mroute first hop router.', columns: [] }),
  uncollected({ path: 'multicast/routes/outgoing-interfaces', title: 'Mroute oil detail', what: 'Mroute oil detail.', columns: [] }),
  uncollected({ path: 'multicast/routes/overview', title: 'Mroute overview', what: 'Mroute overview.', columns: [] }),
  uncollected({ path: 'multicast/routes/sources', title: 'Mroute sources', what: 'Mroute sources.', columns: [] }),
  uncollected({ path: 'multicast/routes/table', title: 'Mroute table', what: 'Mroute table.', columns: [] }),
]
