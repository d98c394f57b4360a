/** Cloud: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const CLOUD_TABLES: readonly TableDef[] = [
  uncollected({ path: 'cloud/virtual-machines', title: 'Virtual machines', what: 'Virtual machines.', columns: [] }),
  uncollected({ path: 'cloud/virtual-machines-interfaces', title: 'Virtual interfaces', what: 'Virtual interfaces.', columns: [] }),
]
