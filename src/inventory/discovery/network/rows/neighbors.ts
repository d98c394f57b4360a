/**
 * Rows of neighbors/all: LLDP-MIB remote systems and CISCO-CDP-MIB cache entries, one row per
 * local interface and neighbour, the neighbour resolved to a discovered device where one matches
 * (chassis id, management address, then system name).
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { PORT_SUBTYPE } from '../mibs/lldp.js'
import type { LldpRemote } from '../model.js'

/** The local interface of an LLDP port: by its id when that is a name, else its description, else the port number as ifIndex. */
function localInterface(dev: Device, portNum: number): string | null {
  const port = dev.d.lldp?.ports.get(portNum)
  const names = new Set(dev.d.interfaces.map((i) => i.name))
  for (const candidate of [port?.subtype === PORT_SUBTYPE.name || port?.subtype === PORT_SUBTYPE.local ? port.id : null, port?.descr ?? null]) {
    if (candidate && names.has(candidate)) return candidate
  }
  const byDescr = dev.d.interfaces.find((i) => i.descr !== null && i.descr === port?.descr)
  return byDescr?.name ?? ifName(dev, portNum)
}

function resolve(net: Network, r: LldpRemote): Device | null {
  if (r.chassisId && net.byChassis.has(r.chassisId)) return net.byChassis.get(r.chassisId)!
  for (const a of r.mgmtAddresses) if (net.byAddress.has(a)) return net.byAddress.get(a)!
  return (r.sysName && (net.byName.get(r.sysName.toLowerCase()) ?? net.byName.get(r.sysName.split('.')[0]!.toLowerCase()))) || null
}

/** The neighbour's interface: a name from the port id, else the interface with that MAC on a discovered neighbour, else the port description. */
function remoteInterface(remote: Device | null, r: LldpRemote): string | null {
  if ((r.portSubtype === PORT_SUBTYPE.name || r.portSubtype === PORT_SUBTYPE.local || r.portSubtype === PORT_SUBTYPE.alias) && r.portId) return r.portId
  if (r.portSubtype === PORT_SUBTYPE.mac && remote) {
    const i = remote.d.interfaces.find((x) => x.mac === r.portId)
    if (i) return i.name
  }
  return r.portDescr ?? r.portId
}

export function* neighborRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const rows = new Map<string, Row & { protocols: string[] }>()
    const add = (local: string | null, remote: Device | null, remoteHost: string | null, remoteInt: string | null, remoteIp: string | null, protocol: string) => {
      const localInt = local === null ? null : shortName(local)
      const host = remote?.hostname ?? remoteHost
      const key = `${localInt}/${remote?.sn ?? host}`
      const existing = rows.get(key)
      if (existing) {
        if (!existing.protocols.includes(protocol)) existing.protocols.push(protocol)
        return
      }
      rows.set(key, {
        id: `${dev.sn}/${localInt}/${host ?? remoteIp ?? ''}`,
        localSn: dev.sn,
        localHost: dev.hostname,
        localInt,
        remoteSn: remote?.sn ?? null,
        remoteHost: host,
        remoteInt: remoteInt === null ? null : shortName(remoteInt),
        remoteIp,
        protocols: [protocol],
        siteName: dev.siteName,
      })
    }
    for (const r of dev.d.lldp?.remotes ?? []) {
      const remote = resolve(net, r)
      add(localInterface(dev, r.localPort), remote, r.sysName, remoteInterface(remote, r), r.mgmtAddresses[0] ?? null, 'lldp')
    }
    for (const c of dev.d.cdp) {
      const name = c.deviceId?.replace(/\(.*\)$/, '') ?? null
      const remote = (c.address ? net.byAddress.get(c.address) : undefined) ?? (name ? net.byName.get(name.toLowerCase()) ?? net.byName.get(name.split('.')[0]!.toLowerCase()) : undefined) ?? null
      add(ifName(dev, c.ifIndex), remote, name, c.port, c.address, 'cdp')
    }
    for (const row of rows.values()) {
      row.protocols.sort()
      yield row
    }
  }
}
