/**
 * Discovery history: every device any discovery run found (the simulator's or the network's,
 * not imported or cloned snapshots), with when it was last collected and how it was reached,
 * read from the devices of the snapshots whose rows are loaded.
 */
import { col } from './columns.js'
import type { TableDef } from './types.js'

export const DISCOVERY_HISTORY: TableDef = {
  path: 'inventory/discovery-history',
  title: 'Discovery history',
  description:
    'Every device discovered by a discovery run (simulator or network; not imported or cloned snapshots), one row per serial number, from the most recent such snapshot that holds it among the loaded ones (the request has no snapshot key). An unloaded snapshot is not read until it is loaded again.',
  snapshotScoped: false,
  source: {
    kind: 'derived',
    sql: [
      'SELECT DISTINCT ON (d.sn) d.sn AS id, d.sn, d.hostname, d.login_ip, d.login_type, s.ts_start AS ts, s.id AS snapshot, NULL::text AS username, NULL::text AS username_notes',
      "FROM inventory.devices d JOIN inventory.snapshots s ON s.id = d.snapshot_id WHERE s.origin IN ('simulator', 'network') AND s.status = 'done' AND s.loaded",
      'ORDER BY d.sn, s.ts_start DESC, s.seq DESC',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'Serial number of the device (one row per device).'),
    col('sn', 'string', 'Serial number of the device.'),
    col('hostname', 'string', 'Hostname of the device when it was last discovered.'),
    col('loginIp', 'ip', 'Address the device was reached on then.'),
    col('loginType', 'string', 'How the device was read then (snmp for network discovery, as inventory/devices says).'),
    col('ts', 'timestamp', 'When the device was last discovered: the start of the discovery run that collected it (netinv keeps no time per device).'),
    col('snapshot', 'string', 'Id of the snapshot of that discovery run.'),
    col('username', 'string', 'User name of the login credential in the API family; netinv logs in with SNMP credentials, which it names rather than a user: always null.'),
    col('usernameNotes', 'string', 'Notes of that credential: always null.'),
  ],
  key: ['sn'],
  volatile: ['loginIp', 'ts', 'snapshot'],
  defaultSort: { column: 'ts', order: 'desc' },
  indexes: [],
  webPath: '/settings/discovery-history',
}
