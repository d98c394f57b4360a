/** Routing: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const ROUTING_TABLES: readonly TableDef[] = [
  uncollected({ path: 'networks/path-lookup-checks', title: 'Path lookup checks', what: 'Path lookup checks.', columns: [['expectedPassingTraffic', 'string', 'The expectedPassingTraffic column of this table in the API family.'], ['passingTraffic', 'string', 'The passingTraffic column of this table in the API family.'], ['result', 'string', 'The result column of this table in the API family.']], perDevice: false }),
  uncollected({ path: 'networks/route-stability', title: 'Route stability', what: 'Route stability.', columns: [['prefix', 'string', 'IP prefix of the route.'], ['ratioCrit', 'number', 'The ratioCrit column of this table in the API family.'], ['ratioInfo', 'number', 'The ratioInfo column of this table in the API family.'], ['ratioWarn', 'number', 'The ratioWarn column of this table in the API family.']], perDevice: false }),
  uncollected({ path: 'routing/protocols/bgp/address-families', title: 'BGP address families', what: 'BGP address families.', columns: [] }),
  uncollected({ path: 'routing/protocols/eigrp/interfaces', title: 'EIGRP interfaces', what: 'EIGRP interfaces.', columns: [['neiCount', 'integer', 'Number of neighbours on the interface.']] }),
  uncollected({ path: 'routing/protocols/eigrp/neighbors', title: 'EIGRP neighbors', what: 'EIGRP neighbors.', columns: [['currStateTime', 'integer', 'Seconds in the current state.']] }),
  uncollected({ path: 'routing/protocols/is-is/interfaces', title: 'ISIS interfaces', what: 'ISIS interfaces.', columns: [['neiCount', 'integer', 'Number of neighbours on the interface.']] }),
  uncollected({ path: 'routing/protocols/is-is/neighbors', title: 'ISIS neighbors', what: 'ISIS neighbors.', columns: [['currStateTime', 'integer', 'Seconds in the current state.']] }),
  uncollected({ path: 'routing/protocols/rip/interfaces', title: 'RIP interfaces', what: 'RIP interfaces.', columns: [['neiCount', 'integer', 'Number of neighbours on the interface.']] }),
  uncollected({ path: 'routing/protocols/rip/neighbors', title: 'RIP neighbors', what: 'RIP neighbors.', columns: [] }),
]
