/** FHRP: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const FHRP_TABLES: readonly TableDef[] = [
  uncollected({ path: 'fhrp/balancing', title: 'Balancing', what: 'Balancing.', columns: [] }),
  uncollected({ path: 'fhrp/glbp-forwarders', title: 'GLBP forwarders', what: 'GLBP forwarders.', columns: [] }),
  uncollected({ path: 'fhrp/stproot-alignment', title: 'Stproot alignment', what: 'Stproot alignment.', columns: [['count', 'integer', 'Number of rows the entry stands for.']] }),
  uncollected({ path: 'fhrp/virtual-gateways', title: 'Virtual gateways', what: 'Virtual gateways.', columns: [] }),
]
