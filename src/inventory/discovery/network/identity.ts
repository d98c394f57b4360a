/**
 * Which device a collection is: its serial number (`sn`, unique per snapshot) and chassis MAC.
 * The serial is the chassis serial of ENTITY-MIB; a device without one gets a serial derived
 * from its sysObjectID and chassis MAC, stable across discoveries and across the addresses the
 * device is reached by.
 */
import { createHash } from 'node:crypto'
import { chassisOf } from './mibs/entity.js'
import type { CollectedDevice } from './model.js'

/** ifType ethernetCsmacd. */
const ETHERNET = 6

/**
 * The chassis MAC: LLDP's local chassis id when it is a MAC address, else the bridge's base
 * address, else the lowest MAC of the Ethernet interfaces (of any interface as a last resort).
 */
export function chassisMac(d: CollectedDevice): string | null {
  if (d.lldp?.chassisSubtype === 4 && d.lldp.chassisId) return d.lldp.chassisId
  if (d.bridge?.baseMac) return d.bridge.baseMac
  const macs = (only: boolean) => d.interfaces.filter((i) => i.mac !== null && (!only || i.type === ETHERNET)).map((i) => i.mac!).sort()
  return macs(true)[0] ?? macs(false)[0] ?? null
}

export function hardwareSerial(d: CollectedDevice): string | null {
  return chassisOf(d.entity)?.serial ?? null
}

/** The device's `sn`: the hardware serial, else "SNMP" and 12 hex digits of a hash of sysObjectID and chassis MAC (or of the address when neither is known). */
export function deviceSn(d: CollectedDevice): string {
  const hw = hardwareSerial(d)
  if (hw) return hw
  const mac = chassisMac(d)
  const basis = mac ? `${d.system.objectId ?? ''}/${mac}` : `${d.system.objectId ?? ''}/${d.system.name ?? ''}/${d.address}`
  return `SNMP${createHash('sha256').update(basis).digest('hex').slice(0, 12).toUpperCase()}`
}

/** Hostname: sysName up to its first dot (the rest is the domain), else the address. */
export function hostnameOf(d: CollectedDevice): { hostname: string; fqdn: string | null; domain: string | null } {
  const name = d.system.name?.trim()
  if (!name) return { hostname: d.address, fqdn: null, domain: null }
  const dot = name.indexOf('.')
  if (dot <= 0 || /^\d+(\.\d+){3}$/.test(name)) return { hostname: name, fqdn: null, domain: null }
  return { hostname: name.slice(0, dot), fqdn: name, domain: name.slice(dot + 1) }
}
