/** DHCP: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const DHCP_TABLES: readonly TableDef[] = [
  uncollected({ path: 'dhcp/relay/global-stats/received', title: 'Relay global stats received', what: 'Relay global stats received.', columns: [] }),
  uncollected({ path: 'dhcp/relay/global-stats/relayed', title: 'Relay global stats relayed', what: 'Relay global stats relayed.', columns: [] }),
  uncollected({ path: 'dhcp/relay/global-stats/sent', title: 'Relay global stats sent', what: 'Relay global stats sent.', columns: [] }),
  uncollected({ path: 'dhcp/relay/global-stats/summary', title: 'Relay global stats summary', what: 'Relay global stats summary.', columns: [] }),
  uncollected({ path: 'dhcp/relay/interfaces', title: 'Relay interfaces', what: 'Relay interfaces.', columns: [] }),
  uncollected({ path: 'dhcp/relay/interfaces-stats/received', title: 'Relay interfaces stats received', what: 'Relay interfaces stats received.', columns: [] }),
  uncollected({ path: 'dhcp/relay/interfaces-stats/relayed', title: 'Relay interfaces stats relayed', what: 'Relay interfaces stats relayed.', columns: [] }),
  uncollected({ path: 'dhcp/relay/interfaces-stats/sent', title: 'Relay interfaces stats sent', what: 'Relay interfaces stats sent.', columns: [] }),
  uncollected({ path: 'dhcp/server/excluded-ranges', title: 'Server excluded ranges', what: 'Server excluded ranges.', columns: [] }),
  uncollected({ path: 'dhcp/server/interfaces', title: 'Server excluded interfaces', what: 'Server excluded interfaces.', columns: [] }),
  uncollected({ path: 'dhcp/server/leases', title: 'Server leases', what: 'Server leases.', columns: [] }),
  uncollected({ path: 'dhcp/server/pools', title: 'Server pools', what: 'Server pools.', columns: [] }),
  uncollected({ path: 'dhcp/server/summary', title: 'Server summary', what: 'Server summary.', columns: [] }),
]
