/** The optics levels of transceivers (digital optical monitoring), as network discovery reads them from the devices' sensors. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef } from './types.js'

export const TRANSCEIVER_STATISTICS: StoredTableDef = {
  path: 'interfaces/transceivers/statistics',
  title: 'Transceivers statistics',
  description:
    'The optics levels of every transceiver that reports them (digital optical monitoring): temperature, supply voltage, laser bias current, transmitted and received optical power, from the device\'s sensors (ENTITY-SENSOR-MIB, Cisco\'s CISCO-ENTITY-SENSOR-MIB) or Juniper\'s JUNIPER-DOM-MIB. A multi-lane optic has a row per lane. The readings change from one discovery to the next; a comparison shows them only when asked. Column names are netinv\'s (the API family\'s clients name none for this table).',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.transceiver_statistics' },
  columns: [
    idColumn('transceiver (or lane)'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the transceiver is plugged into (as in inventory/interfaces).'),
    col('channel', 'integer', 'Lane of a multi-lane optic as the device numbers it (from 1 in sensor names, from 0 on Junos), null for an optic reported as a whole.'),
    col('temperature', 'number', 'Module temperature in °C.'),
    col('voltage', 'number', 'Module supply voltage in volts.'),
    col('txBias', 'number', 'Laser bias current in mA.'),
    col('txPower', 'number', 'Transmitted optical power in dBm.'),
    col('rxPower', 'number', 'Received optical power in dBm (very low, e.g. -40, where no light arrives).'),
  ],
  key: ['sn', 'intName', 'channel'],
  nullableKey: ['channel'],
  volatile: ['temperature', 'voltage', 'txBias', 'txPower', 'rxPower'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id']],
  webPath: '/technology/interfaces/transceivers/statistics',
}
