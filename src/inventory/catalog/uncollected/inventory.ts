/** Inventory: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const INVENTORY_TABLES: readonly TableDef[] = [
  uncollected({ path: 'inventory/power-supplies-fans', title: 'Environment power supplies fans', what: 'Environment power supplies fans.', columns: [['fanState', 'string', 'The fanState column of this table in the API family.']] }),
]
