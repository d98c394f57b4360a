/** IF-MIB ifTable and ifXTable, and the duplex of EtherLike-MIB. */
import type { MibReader } from '../snmp/client.js'
import { int, mac, text } from '../snmp/values.js'
import type { Iface } from '../model.js'

export const IF_TABLE = {
  descr: '1.3.6.1.2.1.2.2.1.2',
  type: '1.3.6.1.2.1.2.2.1.3',
  mtu: '1.3.6.1.2.1.2.2.1.4',
  speed: '1.3.6.1.2.1.2.2.1.5',
  mac: '1.3.6.1.2.1.2.2.1.6',
  admin: '1.3.6.1.2.1.2.2.1.7',
  oper: '1.3.6.1.2.1.2.2.1.8',
  inDiscards: '1.3.6.1.2.1.2.2.1.13',
  inErrors: '1.3.6.1.2.1.2.2.1.14',
  outDiscards: '1.3.6.1.2.1.2.2.1.19',
  outErrors: '1.3.6.1.2.1.2.2.1.20',
}
export const IFX_TABLE = {
  name: '1.3.6.1.2.1.31.1.1.1.1',
  inOctets: '1.3.6.1.2.1.31.1.1.1.6',
  outOctets: '1.3.6.1.2.1.31.1.1.1.10',
  highSpeed: '1.3.6.1.2.1.31.1.1.1.15',
  alias: '1.3.6.1.2.1.31.1.1.1.18',
}
/** dot3StatsDuplexStatus: unknown(1), halfDuplex(2), fullDuplex(3). */
export const DUPLEX = '1.3.6.1.2.1.10.7.2.1.19'

const ADMIN = [null, 'up', 'down', 'testing'] as const
const OPER = [null, 'up', 'down', 'testing', 'unknown', 'dormant', 'notPresent', 'lowerLayerDown'] as const

function pick<T>(list: readonly T[], n: number | null): T | null {
  return n === null ? null : (list[n] ?? null)
}

export async function collectInterfaces(client: MibReader): Promise<Iface[]> {
  const [base, ext, duplex] = await Promise.all([client.table(IF_TABLE), client.table(IFX_TABLE), client.walk([DUPLEX])])
  const byIndex = new Map(ext.map((r) => [r.index[0]!, r.cells]))
  const duplexByIndex = new Map((duplex.get(DUPLEX) ?? []).map((vb) => [Number(vb.oid.slice(DUPLEX.length + 1)), int(vb)]))
  return base.map(({ index, cells }) => {
    const ifIndex = index[0]!
    const x = byIndex.get(ifIndex) ?? {}
    const high = int(x.highSpeed)
    const speed = int(cells.speed)
    const d = duplexByIndex.get(ifIndex)
    return {
      index: ifIndex,
      name: text(x.name) || text(cells.descr) || String(ifIndex),
      descr: text(cells.descr),
      alias: text(x.alias) || null,
      type: int(cells.type),
      admin: pick(ADMIN, int(cells.admin)),
      oper: pick(OPER, int(cells.oper)),
      // ifSpeed saturates at 4294967295; ifHighSpeed (Mb/s) carries faster links
      speedBps: high !== null && high > 0 && (speed === null || speed >= 4_294_967_295 || high * 1e6 > speed) ? high * 1e6 : speed,
      mtu: int(cells.mtu),
      mac: mac(cells.mac),
      duplex: d === 3 ? 'full' : d === 2 ? 'half' : null,
      inOctets: int(x.inOctets),
      outOctets: int(x.outOctets),
      inErrors: int(cells.inErrors),
      outErrors: int(cells.outErrors),
      inDiscards: int(cells.inDiscards),
      outDiscards: int(cells.outDiscards),
    }
  })
}
