/** QOS: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const QOS_TABLES: readonly TableDef[] = [
  uncollected({ path: 'qos/marking', title: 'Marking', what: 'Marking.', columns: [] }),
  uncollected({ path: 'qos/policing', title: 'Policing', what: 'Policing.', columns: [] }),
  uncollected({ path: 'qos/policy-maps', title: 'Policy maps', what: 'Policy maps.', columns: [['match', 'string', 'The match column of this table in the API family.'], ['rateDrop', 'number', 'The rateDrop column of this table in the API family.']] }),
  uncollected({ path: 'qos/priority-queuing', title: 'Priority queuing', what: 'Priority queuing.', columns: [['exDrops', 'integer', 'The exDrops column of this table in the API family.']] }),
  uncollected({ path: 'qos/queuing', title: 'Queuing', what: 'Queuing.', columns: [['queueLimit', 'integer', 'The queueLimit column of this table in the API family.']] }),
  uncollected({ path: 'qos/random-drops', title: 'Random drops', what: 'Random drops.', columns: [['ranDropPkts', 'integer', 'The ranDropPkts column of this table in the API family.'], ['tailDropPkts', 'integer', 'The tailDropPkts column of this table in the API family.']] }),
  uncollected({ path: 'qos/shaping', title: 'QOS shaping', what: 'QOS shaping.', columns: [['childPolicy', 'string', 'The childPolicy column of this table in the API family.']] }),
  uncollected({ path: 'qos/shapping', title: 'Shapping', what: 'Shapping.', columns: [] }),
]
