/** SDWAN: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const SDWAN_TABLES: readonly TableDef[] = [
  uncollected({ path: 'sdwan/links', title: 'Links', what: 'Links.', columns: [], perDevice: false }),
  uncollected({ path: 'sdwan/sites', title: 'Sites', what: 'Sites.', columns: [['uptime', 'integer', 'Uptime in seconds.']], perDevice: false }),
]
