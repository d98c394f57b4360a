/**
 * VRFs: which interfaces are in which VRF, and each VRF's routes.
 *
 * MPLS-L3VPN-STD-MIB (RFC 4382): mplsL3VpnVrfTable names the VRFs (read first: a device without
 * VRFs costs one request), mplsL3VpnIfConfTable (index: VRF name, ifIndex) their interfaces, and
 * mplsL3VpnVrfRteTable (index: VRF name, then the index of inetCidrRouteTable) their routes with
 * the same columns as the global table. A device that answers none of it but ARISTA-VRF-MIB
 * gives its interfaces' VRFs there (aristaVrfIfMembership, by ifIndex); its per-VRF routes are
 * not in that MIB. The VRF "default" of ARISTA-VRF-MIB is the global table.
 */
import type { MibReader } from '../snmp/client.js'
import type { Route } from '../model.js'
import { fromInetIndex, routeOf } from './routes.js'

const L3VPN = '1.3.6.1.2.1.10.166.11.1'
export const VRF_TABLE = { operStatus: `${L3VPN}.2.2.1.6` }
export const VRF_IF_CONF = { classification: `${L3VPN}.2.1.1.2`, rowStatus: `${L3VPN}.2.1.1.5` }
export const VRF_ROUTE = { ifIndex: `${L3VPN}.4.1.1.7`, type: `${L3VPN}.4.1.1.8`, proto: `${L3VPN}.4.1.1.9`, metric: `${L3VPN}.4.1.1.12` }
export const ARISTA_VRF_IF = { name: '1.3.6.1.4.1.30065.3.18.1.2.1.1' }

/** A VRF name at the start of an index (length, then its octets) and where the rest starts; null when malformed. */
function nameFromIndex(index: readonly number[]): { name: string; next: number } | null {
  const len = index[0]
  if (len === undefined || len > 31 || index.length < len + 1) return null
  const octets = index.slice(1, len + 1)
  if (octets.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) return null
  return { name: Buffer.from(octets).toString('utf8'), next: len + 1 }
}

export interface VrfData {
  interfaces: Map<number, string>
  routes: Route[]
}

export async function collectVrfs(client: MibReader): Promise<VrfData> {
  const interfaces = new Map<number, string>()
  const routes: Route[] = []
  const vrfs = await client.table(VRF_TABLE)
  if (vrfs.length === 0) {
    for (const row of await client.table(ARISTA_VRF_IF)) {
      const v = row.cells.name?.value
      const name = Buffer.isBuffer(v) ? v.toString('utf8') : typeof v === 'string' ? v : null
      const ifIndex = row.index[0]
      if (name && name !== 'default' && ifIndex !== undefined && row.index.length === 1) interfaces.set(ifIndex, name)
    }
    return { interfaces, routes }
  }
  for (const row of await client.table(VRF_IF_CONF)) {
    const vrf = nameFromIndex(row.index)
    const ifIndex = vrf ? row.index[vrf.next] : undefined
    if (vrf && vrf.name !== '' && ifIndex !== undefined && row.index.length === vrf.next + 1) interfaces.set(ifIndex, vrf.name)
  }
  for (const row of await client.table(VRF_ROUTE)) {
    const vrf = nameFromIndex(row.index)
    const key = vrf ? fromInetIndex(row.index, vrf.next) : null
    if (vrf && key) routes.push(routeOf(key, row, vrf.name))
  }
  return { interfaces, routes }
}
