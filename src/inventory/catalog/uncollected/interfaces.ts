/** Interfaces: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const INTERFACES_TABLES: readonly TableDef[] = [
  uncollected({ path: 'interfaces/connectivity-matrix', title: 'Connectivity matrix', what: 'Connectivity matrix.', columns: [] }),
  uncollected({ path: 'interfaces/connectivity-matrix/unmanaged-neighbors/detail', title: 'Interfaces connectivity matrix unmanaged neighbors detail', what: 'Interfaces connectivity matrix unmanaged neighbors detail.', columns: [['protocol', 'string', 'Protocol name.']] }),
  uncollected({ path: 'interfaces/connectivity-matrix/unmanaged-neighbors/summary', title: 'Interfaces connectivity matrix unmanaged neighbors summary', what: 'Interfaces connectivity matrix unmanaged neighbors summary.', columns: [], perDevice: false }),
  uncollected({ path: 'interfaces/counters/inbound', title: 'Counters inbound', what: 'Counters inbound.', columns: [] }),
  uncollected({ path: 'interfaces/counters/outbound', title: 'Counters outbound', what: 'Counters outbound.', columns: [] }),
  uncollected({ path: 'interfaces/inconsistencies/details', title: 'Inconsistencies details', what: 'Inconsistencies details.', columns: [] }),
  uncollected({ path: 'interfaces/inconsistencies/summary', title: 'Inconsistencies', what: 'Inconsistencies.', columns: [['vlanCount', 'integer', 'The vlanCount column of this table in the API family.']] }),
  uncollected({ path: 'interfaces/port-channel/balance/inbound', title: 'Inbound balancing table', what: 'Inbound balancing table.', columns: [['rate', 'number', 'The rate column of this table in the API family.'], ['variance', 'number', 'The variance column of this table in the API family.']] }),
  uncollected({ path: 'interfaces/port-channel/balance/outbound', title: 'Outbound balancing table', what: 'Outbound balancing table.', columns: [['rate', 'number', 'The rate column of this table in the API family.'], ['variance', 'number', 'The variance column of this table in the API family.']] }),
  uncollected({ path: 'interfaces/pppoe', title: 'Point to point over ethernet', what: 'Point to point over ethernet.', columns: [] }),
  uncollected({ path: 'interfaces/pppoe/sessions', title: 'Point to point over ethernet sessions', what: 'Point to point over ethernet sessions.', columns: [] }),
  uncollected({ path: 'interfaces/storm-control/all', title: 'Storm control all', what: 'Storm control all.', columns: [] }),
  uncollected({ path: 'interfaces/storm-control/broadcast', title: 'Storm control broadcast', what: 'Storm control broadcast.', columns: [] }),
  uncollected({ path: 'interfaces/storm-control/multicast', title: 'Storm control multicast', what: 'Storm control multicast.', columns: [] }),
  uncollected({ path: 'interfaces/storm-control/unicast', title: 'Storm control unicast', what: 'Storm control unicast.', columns: [] }),
  uncollected({ path: 'interfaces/transceivers/errors', title: 'Transceivers errors', what: 'Transceivers errors.', columns: [] }),
  uncollected({ path: 'interfaces/transceivers/inventory', title: 'Transceivers', what: 'Transceivers.', columns: [] }),
  uncollected({ path: 'interfaces/tunnels/ipv4', title: 'Tunnels IPv4', what: 'Tunnels IPv4.', columns: [] }),
  uncollected({ path: 'interfaces/tunnels/ipv6', title: 'Tunnels IPv6', what: 'Tunnels IPv6.', columns: [] }),
]
