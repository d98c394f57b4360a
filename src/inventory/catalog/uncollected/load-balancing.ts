/** Load balancing: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const LOAD_BALANCING_TABLES: readonly TableDef[] = [
  uncollected({ path: 'load-balancing/virtual-servers', title: 'Virtual servers', what: 'Virtual servers.', columns: [] }),
  uncollected({ path: 'load-balancing/virtual-servers/f5-partitions', title: 'Virtual servers F5 partitions', what: 'Virtual servers F5 partitions.', columns: [] }),
  uncollected({ path: 'load-balancing/virtual-servers/pool-members', title: 'Virtual servers pool members', what: 'Virtual servers pool members.', columns: [] }),
  uncollected({ path: 'load-balancing/virtual-servers/pools', title: 'Virtual servers pools', what: 'Virtual servers pools.', columns: [] }),
]
