/** Tables of the inventory group: devices, interfaces, sites, part numbers and summaries. */
import { DEVICE_TYPES, col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const DEVICES: StoredTableDef = {
  path: 'inventory/devices',
  title: 'Devices',
  description: 'Every network device discovered in the snapshot, with its platform, software and resources.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.devices' },
  columns: [
    idColumn('device'),
    col('sn', 'string', 'Unique serial number the product assigns to the device (chassis serial, or a derived one for virtual chassis).'),
    col('snHw', 'string', 'Hardware serial number as reported by the device.'),
    col('hostname', 'string', 'Hostname of the device.'),
    col('hostnameOriginal', 'string', 'The name as the device reported it, before the domain was cut off: fqdn when it has one, else hostname.', { sql: 'coalesce(t."fqdn", t."hostname")' }),
    col('siteName', 'string', 'Site the device belongs to.'),
    col('vendor', 'string', 'Manufacturer, e.g. cisco, juniper, arista.'),
    col('family', 'string', 'Operating system family, e.g. ios-xe, nx-os, junos, eos.'),
    col('platform', 'string', 'Hardware platform (product line), e.g. c9300, mx, 7050.'),
    col('model', 'string', 'Exact hardware model, e.g. C9300-48P.'),
    col('version', 'string', 'Running software version.'),
    col('image', 'string', 'Software image file the device booted.'),
    col('devType', 'string', 'Role of the device.', { values: DEVICE_TYPES }),
    col('loginIp', 'ip', 'Management address discovery logged in to.'),
    col('loginType', 'string', 'Protocol used to log in.', { values: ['ssh', 'telnet', 'api', 'snmp'] }),
    col('mac', 'mac', 'Base MAC address of the device (lower-case, colon separated).'),
    col('uptime', 'integer', 'Seconds since the last reload, at discovery time.'),
    col('reload', 'string', 'Reason of the last reload as reported by the device.'),
    col('memoryTotalBytes', 'integer', 'Total memory in bytes.'),
    col('memoryUsedBytes', 'integer', 'Memory in use in bytes.'),
    col('memoryUtilization', 'number', 'Memory in use, percent of the total (0–100).'),
    col('processor', 'string', 'Processor type.'),
    col('fqdn', 'string', 'Fully qualified domain name (hostname plus domain).'),
    col('domain', 'string', 'DNS domain configured on the device.'),
    col('stpDomain', 'string', 'Spanning-tree domain the device takes part in, null when none.'),
    col('configReg', 'string', 'Configuration register (Cisco IOS devices), null elsewhere.'),
    col('objectId', 'string', 'SNMP sysObjectID of the device.'),
    col('taskKey', 'string', 'Identifier of the discovery task that collected the device.'),
    col('slug', 'string', 'URL-friendly unique name of the device (lower-case hostname).'),
  ],
  key: ['sn'],
  // loginIp: which of its addresses discovery reached the device on, not a property of the device
  volatile: ['uptime', 'memoryUsedBytes', 'memoryUtilization', 'taskKey', 'loginIp'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['sn'], ['siteName'], ['vendor'], ['loginIp']],
  webPath: '/inventory/devices',
}

export const INTERFACES: StoredTableDef = {
  path: 'inventory/interfaces',
  title: 'Interfaces',
  description: 'Physical and logical interfaces of every device, with their state, speed and addressing.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.interfaces' },
  columns: [
    idColumn('interface'),
    ...deviceColumns(),
    col('intName', 'string', 'Normalised interface name, e.g. Gi1/0/1, Eth1/1, ge-0/0/0.100.'),
    col('nameOriginal', 'string', 'Interface name exactly as the device reports it.'),
    col('dscr', 'string', 'Configured interface description.'),
    col('l1', 'string', 'Layer 1 (physical) state.', { values: ['up', 'down', 'admin-down', 'err-disabled'] }),
    col('l2', 'string', 'Layer 2 (line protocol) state.', { values: ['up', 'down'] }),
    col('reason', 'string', 'Why the interface is not up (e.g. not-connected, admin-down), null when up.'),
    col('errDisabled', 'string', 'Cause of an err-disabled state (e.g. bpduguard, psecure-violation), null otherwise.'),
    col('speed', 'string', 'Operational speed as displayed, e.g. 1Gbps.'),
    col('speedValue', 'integer', 'Operational speed in bits per second.'),
    col('speedType', 'string', 'Whether the speed was negotiated or set.', { values: ['auto', 'fixed'] }),
    col('duplex', 'string', 'Duplex mode.', { values: ['full', 'half', 'auto'] }),
    col('media', 'string', 'Physical medium, e.g. copper, fiber, virtual.'),
    col('mtu', 'integer', 'Maximum transmission unit in bytes.'),
    col('mac', 'mac', 'MAC address of the interface.'),
    col('primaryIp', 'ip', 'Primary IPv4 address configured on the interface, null when none.'),
    col('hasTransceiver', 'boolean', 'Whether a pluggable transceiver is inserted.'),
    col('transceiverType', 'string', 'Transceiver type, e.g. SFP-10G-SR, null when none.'),
    col('loginIp', 'ip', 'Management address of the device.'),
  ],
  key: ['sn', 'intName'],
  // the device's management address, repeated on each of its interfaces
  volatile: ['loginIp'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id'], ['sn'], ['siteName'], ['primaryIp'], ['l1']],
  positions: ['hostname'],
  valueCounts: ['hostname', 'siteName', 'intName', 'dscr', 'l1', 'l2'],
  webPath: '/inventory/interfaces',
}

export const SITES: StoredTableDef = {
  path: 'inventory/sites',
  title: 'Sites',
  description: 'Sites of the network with the counts of what each holds.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.sites' },
  columns: [
    idColumn('site'),
    col('siteName', 'string', 'Name of the site.'),
    col('siteKey', 'string', 'Key of the site that other tables refer to (vlan/device-summary); the same value as `id`.', { sql: 't."id"' }),
    col('devicesCount', 'integer', 'Number of devices at the site.'),
    col('routersCount', 'integer', 'Number of routers (device type router) at the site.'),
    col('switchesCount', 'integer', 'Number of switches (device types switch and l3switch) at the site.'),
    col('networksCount', 'integer', 'Number of distinct IP networks configured on the devices of the site.'),
    col('usersCount', 'integer', 'Number of end hosts (users) seen at the site.'),
    col('vlanCount', 'integer', 'Number of distinct VLAN ids configured at the site.'),
    col('stpDomains', 'stringArray', 'Spanning-tree domains of the site: the distinct stpDomain of its devices (inventory/devices), sorted; empty when none.', {
      sql: `coalesce((SELECT array_agg(DISTINCT d.stp_domain ORDER BY d.stp_domain) FROM inventory.devices d WHERE d.snapshot_id = t.snapshot_id AND d.site_name = t."site_name" AND d.stp_domain IS NOT NULL), '{}'::text[])`,
      unordered: true,
    }),
    col('stpDCount', 'integer', 'Number of spanning-tree domains of the site (the length of stpDomains).', {
      sql: '(SELECT count(DISTINCT d.stp_domain) FROM inventory.devices d WHERE d.snapshot_id = t.snapshot_id AND d.site_name = t."site_name")',
    }),
    col('rDomains', 'stringArray', 'Routing domains of the site; netinv does not group devices into routing domains: always null.', { sql: 'NULL::text[]' }),
    col('rDCount', 'integer', 'Number of routing domains of the site; netinv does not group devices into routing domains: always null.', { sql: 'NULL::bigint' }),
  ],
  key: ['siteName'],
  defaultSort: { column: 'siteName', order: 'asc' },
  indexes: [['siteName']],
  webPath: '/inventory/sites',
}

export const PART_NUMBERS: StoredTableDef = {
  path: 'inventory/pn',
  title: 'Part numbers',
  description: 'Field-replaceable parts of every device: chassis, modules, power supplies, fans, transceivers.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.pn' },
  columns: [
    idColumn('part'),
    col('sn', 'string', 'Serial number of the part itself.'),
    col('deviceSn', 'string', 'Serial number of the device the part is installed in.'),
    col('hostname', 'string', 'Hostname of the device the part is installed in.'),
    col('siteName', 'string', 'Site of the device.'),
    col('name', 'string', 'Inventory name of the part, e.g. "Power Supply 1".'),
    col('dscr', 'string', 'Description of the part as reported by the device.'),
    col('pid', 'string', 'Product identifier (orderable part number).'),
    col('vid', 'string', 'Version identifier (hardware revision).'),
    col('vendor', 'string', 'Vendor of the device.'),
    col('platform', 'string', 'Platform of the device.'),
    col('model', 'string', 'Model of the device.'),
  ],
  key: ['deviceSn', 'name'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['deviceSn'], ['pid']],
  webPath: '/inventory/part-numbers',
}

/** What each summary groups devices by, and its path segment. */
const SUMMARY_GROUPS = {
  vendor: { by: ['vendor'], plural: 'vendors' },
  family: { by: ['vendor', 'family'], plural: 'families' },
  platform: { by: ['vendor', 'platform'], plural: 'platforms' },
  model: { by: ['vendor', 'platform', 'model'], plural: 'models' },
} as const

/** A summary table: devices grouped by one attribute (and the attributes it belongs to). */
function summary(attribute: keyof typeof SUMMARY_GROUPS, title: string): TableDef {
  const { by, plural } = SUMMARY_GROUPS[attribute]
  const grouped: readonly string[] = by
  const list = grouped.join(', ')
  return {
    path: `inventory/summary/${plural}`,
    title,
    description: `Number of devices per ${attribute}, computed from inventory/devices.`,
    snapshotScoped: true,
    source: {
      kind: 'derived',
      sql: `SELECT snapshot_id, concat_ws('/', ${list}) AS id, ${list}, count(*)::bigint AS devices_count FROM inventory.devices GROUP BY snapshot_id, ${list}`,
    },
    columns: [
      col('id', 'string', `The ${grouped.join('/')} the row counts (unique per snapshot).`),
      ...grouped.map((g) => col(g, 'string', g === attribute ? `The ${g} of the counted devices.` : `The ${g} of the counted devices (the ${attribute} belongs to it).`)),
      col('devicesCount', 'integer', `Number of devices of this ${attribute}.`),
    ],
    key: grouped,
    nullableKey: grouped,
    defaultSort: { column: 'devicesCount', order: 'desc' },
    indexes: [],
    webPath: `/inventory/summary/${plural}`,
  }
}

export const SUMMARY_VENDORS = summary('vendor', 'Vendors')
export const SUMMARY_PLATFORMS = summary('platform', 'Platforms')
export const SUMMARY_MODELS = summary('model', 'Models')
export const SUMMARY_FAMILIES = summary('family', 'Operating system families')

export const INVENTORY_TABLES: readonly TableDef[] = [DEVICES, INTERFACES, SITES, PART_NUMBERS, SUMMARY_VENDORS, SUMMARY_PLATFORMS, SUMMARY_MODELS, SUMMARY_FAMILIES]
