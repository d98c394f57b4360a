/** MTU of both ends of every link between two discovered devices: neighbors/all with the MTU of each interface from inventory/interfaces. */
import { col, idColumn } from './columns.js'
import type { TableDef } from './types.js'

/** The MTU of one end's interface, found by its device's hostname (indexed) and serial. */
const mtuOf = (sn: string, host: string, int: string) =>
  `(SELECT i.mtu FROM inventory.interfaces i WHERE i.snapshot_id = n.snapshot_id AND i.hostname = n.${host} AND i.int_name = n.${int} AND i.sn = n.${sn})`

export const INTERFACE_MTU: TableDef = {
  path: 'interfaces/mtu',
  title: 'MTU of links',
  description:
    'Every link between two discovered devices (neighbors/all rows whose neighbour was discovered, one per end that reports it) with the MTU of the interface at each end (inventory/interfaces); compare srcMtu and dstMtu to find mismatches.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      'SELECT n.snapshot_id, n.id, n.site_name, n.local_sn AS src_sn, n.local_host AS src_dev, n.local_int AS src_int,',
      `${mtuOf('local_sn', 'local_host', 'local_int')} AS src_mtu,`,
      'n.remote_sn AS dst_sn, n.remote_host AS dst_dev, n.remote_int AS dst_int,',
      `${mtuOf('remote_sn', 'remote_host', 'remote_int')} AS dst_mtu`,
      'FROM inventory.neighbors n WHERE n.remote_sn IS NOT NULL',
    ].join(' '),
  },
  columns: [
    idColumn('link end (the id of its neighbors/all row)'),
    col('siteName', 'string', 'Site of the device reporting the link.'),
    col('srcSn', 'string', 'Serial number of the device reporting the link.'),
    col('srcDev', 'string', 'Hostname of the device reporting the link.'),
    col('srcInt', 'string', 'Its interface.'),
    col('srcMtu', 'integer', 'MTU of that interface (IF-MIB ifMtu), null when not known.'),
    col('dstSn', 'string', 'Serial number of the neighbour.'),
    col('dstDev', 'string', 'Hostname of the neighbour.'),
    col('dstInt', 'string', "The neighbour's interface, null when its advertisement names none."),
    col('dstMtu', 'integer', "MTU of the neighbour's interface, null when not known."),
    col('layer', 'string', 'The layer the API family compares MTUs at; netinv compares the interface MTU only: always null.', { sql: 'NULL::text' }),
  ],
  key: ['srcSn', 'srcInt', 'dstSn', 'dstInt'],
  nullableKey: ['dstInt'],
  defaultSort: { column: 'srcDev', order: 'asc' },
  indexes: [],
  webPath: '/technology/interfaces/mtu',
}
