/** Addressing: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const ADDRESSING_TABLES: readonly TableDef[] = [
  uncollected({ path: 'addressing/nat/pools', title: 'NAT pools', what: 'NAT pools.', columns: [] }),
  uncollected({ path: 'addressing/nat/rules', title: 'NAT rules', what: 'NAT rules.', columns: [] }),
]
