/** LLDP-MIB (IEEE 802.1AB): the local chassis and ports, and every remote system with its management addresses. */
import type { MibReader } from '../snmp/client.js'
import { inetFromIndex, int, macFromBytes, type Vb } from '../snmp/values.js'
import type { Lldp, LldpRemote } from '../model.js'

const BASE = '1.0.8802.1.1.2.1'
export const LLDP_LOCAL = { chassisSubtype: `${BASE}.3.1.0`, chassisId: `${BASE}.3.2.0` }
export const LLDP_LOC_PORT = { subtype: `${BASE}.3.7.1.2`, id: `${BASE}.3.7.1.3`, descr: `${BASE}.3.7.1.4` }
/** lldpRemTable; index: timeMark, localPortNum, remIndex. */
export const LLDP_REM = {
  chassisSubtype: `${BASE}.4.1.1.4`,
  chassisId: `${BASE}.4.1.1.5`,
  portSubtype: `${BASE}.4.1.1.6`,
  portId: `${BASE}.4.1.1.7`,
  portDescr: `${BASE}.4.1.1.8`,
  sysName: `${BASE}.4.1.1.9`,
}
/** lldpRemManAddrIfSubtype; index: timeMark, localPortNum, remIndex, addrSubtype, address. */
export const LLDP_REM_MAN_ADDR = `${BASE}.4.2.1.3`

/** Chassis and port id subtypes whose value is a MAC address (chassis 4, port 3). */
const CHASSIS_MAC = 4
const PORT_MAC = 3

/**
 * An id as text: a MAC address for the MAC subtypes, printable text when it is text, hex
 * otherwise.
 */
export function lldpId(vb: Vb | undefined, isMac: boolean): string | null {
  if (!vb || !Buffer.isBuffer(vb.value) || vb.value.length === 0) return null
  const bytes = vb.value
  if (isMac && bytes.length === 6) return macFromBytes(bytes)
  const s = bytes.toString('utf8')
  return /^[\x20-\x7e]+$/.test(s) ? s : bytes.toString('hex').replace(/(..)(?!$)/g, '$1:')
}

const textOf = (vb: Vb | undefined) => (vb && Buffer.isBuffer(vb.value) ? vb.value.toString('utf8').replace(/\0+$/, '') || null : null)

/** LLDP data, or null when the agent has no LLDP-MIB. */
export async function collectLldp(client: MibReader): Promise<Lldp | null> {
  const [local, ports, remotes, man] = await Promise.all([
    client.get(Object.values(LLDP_LOCAL)),
    client.table(LLDP_LOC_PORT),
    client.table(LLDP_REM),
    client.walk([LLDP_REM_MAN_ADDR]),
  ])
  const chassisSubtype = int(local.get(LLDP_LOCAL.chassisSubtype))
  if (chassisSubtype === null && ports.length === 0 && remotes.length === 0) return null
  const addresses = new Map<string, string[]>()
  for (const vb of man.get(LLDP_REM_MAN_ADDR) ?? []) {
    const index = vb.oid.slice(LLDP_REM_MAN_ADDR.length + 1).split('.').map(Number)
    // subtype 1 = IPv4 (IANA address family), then the length-prefixed address
    const addr = index[3] === 1 ? inetFromIndex([1, ...index.slice(4)], 0) : null
    if (!addr) continue
    const key = index.slice(0, 3).join('.')
    addresses.set(key, [...(addresses.get(key) ?? []), addr.address])
  }
  const remoteList: LldpRemote[] = remotes.map(({ index, cells }) => {
    const chassis = int(cells.chassisSubtype)
    const port = int(cells.portSubtype)
    return {
      localPort: index[1]!,
      chassisId: lldpId(cells.chassisId, chassis === CHASSIS_MAC),
      chassisSubtype: chassis,
      portId: lldpId(cells.portId, port === PORT_MAC),
      portSubtype: port,
      portDescr: textOf(cells.portDescr),
      sysName: textOf(cells.sysName),
      mgmtAddresses: addresses.get(index.slice(0, 3).join('.')) ?? [],
    }
  })
  return {
    chassisId: lldpId(local.get(LLDP_LOCAL.chassisId), chassisSubtype === CHASSIS_MAC),
    chassisSubtype,
    ports: new Map(ports.map(({ index, cells }) => {
      const subtype = int(cells.subtype)
      return [index[0]!, { id: lldpId(cells.id, subtype === PORT_MAC), subtype, descr: textOf(cells.descr) }]
    })),
    remotes: remoteList,
  }
}

/** Port id subtypes: interfaceAlias(1), portComponent(2), macAddress(3), networkAddress(4), interfaceName(5), agentCircuitId(6), local(7). */
export const PORT_SUBTYPE = { alias: 1, mac: 3, name: 5, local: 7 } as const
