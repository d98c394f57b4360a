/**
 * Wireless: access points and controllers are devices of inventory/devices (device types `ap`
 * and `wlc`) and radios are their interfaces of medium `radio`; these tables read them there.
 * What only a controller knows (SSIDs, associated clients, signal quality) netinv does not
 * collect: those columns are null and wireless/clients and wireless/ssid-summary have no rows.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { TableDef } from './types.js'
import { uncollected } from './uncollected/table.js'

const NOT_KEPT = 'netinv does not collect it from a controller: always null.'

const DEVICE_SQL = (devType: string) =>
  `SELECT snapshot_id, id, sn, hostname, site_name, vendor, family, platform, model, version, login_ip, mac FROM inventory.devices WHERE dev_type = '${devType}'`

const deviceFacts = () => [
  col('vendor', 'string', 'Manufacturer.'),
  col('family', 'string', 'Operating system family.'),
  col('platform', 'string', 'Hardware platform.'),
  col('model', 'string', 'Hardware model.'),
  col('version', 'string', 'Running software version.'),
  col('ip', 'ip', 'Management address.', { sql: 't."login_ip"' }),
  col('mac', 'mac', 'Base MAC address.'),
]

export const WIRELESS_ACCESS_POINTS: TableDef = {
  path: 'wireless/access-points',
  title: 'Wireless access points',
  description: 'Discovered access points (inventory/devices rows of device type ap). Client counts and signal quality come from a wireless controller, which netinv does not read: those columns are null.',
  snapshotScoped: true,
  source: { kind: 'derived', sql: DEVICE_SQL('ap') },
  columns: [
    idColumn('access point (the id of its inventory/devices row)'),
    ...deviceColumns(),
    ...deviceFacts(),
    col('controller', 'string', `Controller the access point is joined to; ${NOT_KEPT}`, { sql: 'NULL::text' }),
    col('clientCount', 'integer', `Associated clients; ${NOT_KEPT}`, { sql: 'NULL::bigint' }),
    col('avgSignalToNoiseRatio', 'number', `Average signal-to-noise ratio of its clients in dB; ${NOT_KEPT}`, { sql: 'NULL::float8' }),
    col('impact', 'number', `Share of clients with poor signal; ${NOT_KEPT}`, { sql: 'NULL::float8' }),
  ],
  key: ['sn'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/wireless/access-points',
}

export const WIRELESS_CONTROLLERS: TableDef = {
  path: 'wireless/controllers',
  title: 'Wireless controllers',
  description: 'Discovered wireless LAN controllers (inventory/devices rows of device type wlc; the simulator models none). What they manage is not read: the counts are null.',
  snapshotScoped: true,
  source: { kind: 'derived', sql: DEVICE_SQL('wlc') },
  columns: [
    idColumn('controller (the id of its inventory/devices row)'),
    ...deviceColumns(),
    ...deviceFacts(),
    col('apCount', 'integer', `Access points joined to the controller; ${NOT_KEPT}`, { sql: 'NULL::bigint' }),
    col('clientCount', 'integer', `Associated clients; ${NOT_KEPT}`, { sql: 'NULL::bigint' }),
  ],
  key: ['sn'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/wireless/controllers',
}

export const WIRELESS_RADIO: TableDef = {
  path: 'wireless/radio',
  title: 'Wireless radios',
  description:
    'Radios of every discovered access point (inventory/interfaces rows of medium radio on devices of type ap). The SSIDs a radio serves and its clients come from a controller, which netinv does not read: those columns are null.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: "SELECT i.snapshot_id, i.id, i.sn, i.hostname, i.site_name, i.int_name, i.dscr, i.l1, i.speed_value, i.mac FROM inventory.interfaces i WHERE i.media = 'radio'",
  },
  columns: [
    idColumn('radio (the id of its inventory/interfaces row)'),
    ...deviceColumns(),
    col('apName', 'string', 'Hostname of the access point.', { sql: 't."hostname"' }),
    col('intName', 'string', 'Interface name of the radio.'),
    col('radioDscr', 'string', 'Configured description of the radio interface, null when none.', { sql: 't."dscr"' }),
    col('radioStatus', 'string', 'Physical state of the radio interface.', { sql: 't."l1"', values: ['up', 'down', 'admin-down', 'err-disabled'] }),
    col('speedValue', 'integer', 'Nominal data rate of the radio in bits per second.'),
    col('mac', 'mac', 'MAC address of the radio interface.'),
    col('wlanSsid', 'string', `SSID served by the radio; ${NOT_KEPT}`, { sql: 'NULL::text' }),
    col('clientCount', 'integer', `Clients associated with the radio; ${NOT_KEPT}`, { sql: 'NULL::bigint' }),
  ],
  key: ['sn', 'intName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/wireless/radio',
}

export const WIRELESS_CLIENTS = uncollected({
  path: 'wireless/clients',
  title: 'Wireless clients',
  what: 'Clients associated with access points, as a wireless controller reports them.',
  columns: [
    ['controller', 'string', 'Controller that reports the client.'],
    ['apName', 'string', 'Access point the client is associated with.'],
    ['client', 'string', 'Client name or MAC address.'],
    ['clientIp', 'ip', 'Address of the client.'],
    ['mac', 'mac', 'MAC address of the client.'],
    ['ssid', 'string', 'SSID the client joined.'],
    ['rssi', 'number', 'Received signal strength in dBm.'],
    ['signalToNoiseRatio', 'number', 'Signal-to-noise ratio in dB.'],
    ['state', 'string', 'Association state.'],
  ],
})

export const WIRELESS_SSID_SUMMARY = uncollected({
  path: 'wireless/ssid-summary',
  title: 'Wireless SSID summary',
  what: 'SSIDs with the number of radios and clients that serve them, as wireless controllers report them.',
  perDevice: false,
  columns: [
    ['wlanSsid', 'string', 'SSID (wireless network name).'],
    ['radioCount', 'integer', 'Radios serving the SSID.'],
    ['clientCount', 'integer', 'Clients associated with the SSID.'],
  ],
})

export const WIRELESS_TABLES: readonly TableDef[] = [WIRELESS_CONTROLLERS, WIRELESS_ACCESS_POINTS, WIRELESS_RADIO, WIRELESS_CLIENTS, WIRELESS_SSID_SUMMARY]
