/**
 * The collected devices put together before rows are made: each device's serial, hostname,
 * site and identity, and the lookups that resolve a neighbour to a discovered device (by
 * address, chassis MAC or system name).
 */
import { inNetwork, ipToInt, parseCidr } from '../../../shared/ipv4.js'
import type { SiteRule } from '../../settings/network.js'
import type { CrawlResult } from './crawl.js'
import { chassisMac, hardwareSerial, hostnameOf } from './identity.js'
import { chassisOf } from './mibs/entity.js'
import type { CollectedDevice, Iface } from './model.js'
import { identify, type Identity } from './vendor.js'

export interface Device {
  sn: string
  snHw: string | null
  hostname: string
  fqdn: string | null
  domain: string | null
  siteName: string
  identity: Identity
  chassisMac: string | null
  devType: string | null
  d: CollectedDevice
  ifByIndex: Map<number, Iface>
}

export interface Network {
  devices: Device[]
  /** Address → device owning it (login address and every configured address). */
  byAddress: Map<string, Device>
  byChassis: Map<string, Device>
  byName: Map<string, Device>
  crawl: CrawlResult
  /** Id of the job that collected the data (devices' taskKey). */
  taskKey: string
  /** Running configurations read over SSH, by serial (empty without SSH credentials). */
  configs: Map<string, { hash: string; text: string; status: 'saved' | 'unsaved' | null }>
}

/** The site of a device: the first rule that matches, else the default site. */
export function siteOf(rules: readonly SiteRule[], defaultSite: string, d: { location: string | null; hostname: string; address: string }): string {
  for (const r of rules) {
    if (r.sysLocation !== undefined && d.location !== null && new RegExp(r.sysLocation, 'i').test(d.location)) return r.site
    if (r.hostname !== undefined && new RegExp(r.hostname, 'i').test(d.hostname)) return r.site
    if (r.subnet !== undefined && inNetwork(ipToInt(d.address), parseCidr(r.subnet))) return r.site
  }
  return defaultSite
}

/** Role from what the device does: forwards IP (router), bridges (switch), both (l3switch). */
function devType(d: CollectedDevice): string | null {
  const bridge = d.bridge !== null && d.bridge.portIfIndex.size > 0
  if (bridge) return d.ipForwarding ? 'l3switch' : 'switch'
  return d.ipForwarding ? 'router' : null
}

export function assemble(crawl: CrawlResult, rules: readonly SiteRule[], defaultSite: string, taskKey: string): Network {
  const devices: Device[] = crawl.devices.map(({ sn, device: d }) => {
    const names = hostnameOf(d)
    return {
      sn,
      snHw: hardwareSerial(d),
      ...names,
      siteName: siteOf(rules, defaultSite, { location: d.system.location, hostname: names.hostname, address: d.address }),
      identity: identify(d.system.objectId, d.system.descr, chassisOf(d.entity)?.model ?? null),
      chassisMac: chassisMac(d),
      devType: devType(d),
      d,
      ifByIndex: new Map(d.interfaces.map((i) => [i.index, i])),
    }
  })
  const byAddress = new Map<string, Device>()
  const byChassis = new Map<string, Device>()
  const byName = new Map<string, Device>()
  for (const dev of devices) {
    for (const a of [dev.d.address, ...dev.d.addresses.map((x) => x.ip)]) if (!byAddress.has(a)) byAddress.set(a, dev)
    if (dev.chassisMac) byChassis.set(dev.chassisMac, dev)
    if (dev.d.lldp?.chassisId) byChassis.set(dev.d.lldp.chassisId, dev)
    byName.set(dev.hostname.toLowerCase(), dev)
    if (dev.fqdn) byName.set(dev.fqdn.toLowerCase(), dev)
  }
  return { devices, byAddress, byChassis, byName, crawl, taskKey, configs: new Map() }
}

/** Interface name of an ifIndex on a device, null when unknown. */
export function ifName(dev: Device, ifIndex: number | null): string | null {
  return ifIndex === null ? null : (dev.ifByIndex.get(ifIndex)?.name ?? null)
}
