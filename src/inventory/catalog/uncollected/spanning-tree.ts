/** Spanning tree: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const SPANNING_TREE_TABLES: readonly TableDef[] = [
  uncollected({ path: 'spanning-tree/inconsistencies/multiple-stp', title: 'Inconsistencies multiple STP', what: 'Inconsistencies multiple STP.', columns: [['stpCount', 'integer', 'The stpCount column of this table in the API family.']] }),
]
