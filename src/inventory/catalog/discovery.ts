/** Tables about a discovery itself: the connectivity report (every address tried). */
import { col, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const CONNECTIVITY_RESULTS = ['ok', 'timeout', 'auth', 'refused', 'error', 'duplicate', 'skipped'] as const

export const CONNECTIVITY: StoredTableDef = {
  path: 'discovery/connectivity-report',
  title: 'Connectivity report',
  description: 'Every address a network discovery tried (seeds and neighbours), with the result, the credential that worked and the error.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.connectivity' },
  columns: [
    idColumn('attempt'),
    col('ip', 'ip', 'Address tried.'),
    col('result', 'string', 'ok: collected; timeout: no answer (wrong community or user, or unreachable); auth: SNMPv3 authentication refused; refused: unreachable; error: another failure; duplicate: a device already collected through another address; skipped: not tried (outside the include networks, or the device limit reached).', { values: CONNECTIVITY_RESULTS }),
    col('credential', 'string', 'Name of the SNMP credential that worked, null when none did.'),
    col('error', 'string', 'Why the address failed, or what part of the collection failed (null when everything worked).'),
    col('durationMs', 'integer', 'Time spent on the address, in milliseconds.'),
    col('tries', 'integer', 'Credentials tried.'),
    col('source', 'string', 'How the address was found.', { values: ['seed', 'lldp', 'cdp'] }),
    col('foundBy', 'string', 'Hostname of the device whose neighbour table named the address, null for seeds.'),
    col('sn', 'string', 'Serial number of the device the address belongs to, null when none answered.'),
    col('hostname', 'string', 'Hostname of the device the address belongs to, null when none answered.'),
  ],
  key: ['ip'],
  volatile: ['durationMs'],
  defaultSort: { column: 'id', order: 'asc' },
  indexes: [['id'], ['ip'], ['result']],
  webPath: '/discovery/connectivity-report',
}

export const DISCOVERY_TABLES: readonly TableDef[] = [CONNECTIVITY]
