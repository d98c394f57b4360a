/** Rows of inventory/devices and inventory/sites. */
import { TAG, between, hash, ipString, networkString, unit, weighted } from '../prng.js'
import { mgmtIp } from '../site.js'
import type { SimNetwork } from '../network.js'
import type { SiteModel } from '../model.js'
import { isSwitch, type Row } from './common.js'

/** Why a device last restarted: planned reloads and power events mostly, a crash now and then. */
const RELOADS: ReadonlyArray<readonly [string, number]> = [['Reload Command', 45], ['power-on', 30], ['Image Install', 20], ['Critical software exception', 5]]
/** A reload within the day before a discovery: a few devices per discovery. */
const RECENT_RELOAD = 0.04
const DAY = 86400
/** Longest uptime of a device that never reloaded since installation: about four years. */
const MAX_UPTIME_DAYS = 1500
function uuidFrom(...parts: number[]): string {
  const hex = [0, 1, 2, 3].map((i) => hash(...parts, i).toString(16).padStart(8, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** A few legacy devices still managed over telnet; a few Cisco boxes left in password recovery. */
const TELNET = 0.03
const RECOVERY_REGISTER = 0.05

/**
 * Memory in use (%): mostly 20-75 %, some busy devices above 75 %, a few above 90 %. Moves a
 * little between discoveries.
 */
function memoryUtilization(seed: number, device: number, generation: number): number {
  const u = unit(seed, TAG.memory, device)
  const base = u < 0.03 ? 91 + u * 200 : u < 0.12 ? 76 + (u - 0.03) * 150 : 20 + ((u - 0.12) / 0.88) ** 1.5 * 54
  const drift = (unit(seed, TAG.memory, device, generation, 1) - 0.5) * 2
  return Math.round(Math.min(99, Math.max(5, base + drift)) * 100) / 100
}

/**
 * Uptime (s) and reload reason at a discovery. Snapshots of a seed are a day apart. Installation
 * ages spread log-uniformly from a day to years; a device reloads in a given day with probability
 * RECENT_RELOAD, so uptime is the time since the latest reload at or before this generation
 * (or since installation), and the reason belongs to that reload.
 */
function lastReload(seed: number, device: number, generation: number): { uptime: number; reload: string } {
  const installedDays = Math.exp(unit(seed, TAG.uptime, device) * Math.log(MAX_UPTIME_DAYS))
  for (let g = generation; g >= Math.max(0, generation - 60); g--) {
    if (unit(seed, TAG.uptime, device, g) < RECENT_RELOAD) {
      const within = between(600, DAY - 400, seed, TAG.uptime, device, g, 1)
      return { uptime: within + (generation - g) * DAY, reload: weighted(RELOADS, seed, TAG.uptime, device, g, 2) }
    }
  }
  return { uptime: Math.round(installedDays * DAY) + generation * DAY, reload: weighted(RELOADS, seed, TAG.uptime, device, 3) }
}

export function* deviceRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    const p = dev.platform
    const utilization = memoryUtilization(seed, dev.index, generation)
    const { uptime, reload } = lastReload(seed, dev.index, generation)
    yield {
      id: `d${dev.index}`,
      sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
      snHw: dev.sn,
      vendor: p.vendor,
      family: p.family,
      platform: p.platform,
      model: p.model,
      version: dev.version,
      image: p.image(dev.version),
      devType: dev.devType,
      loginIp: ipString(mgmtIp(dev)),
      loginType: unit(seed, TAG.extra, dev.index, 7) < TELNET ? 'telnet' : 'ssh',
      mac: model.interfaces.get(dev)![0]!.mac,
      uptime,
      reload,
      memoryTotalBytes: p.memoryBytes,
      memoryUsedBytes: Math.round((p.memoryBytes * utilization) / 100),
      memoryUtilization: utilization,
      processor: p.processor,
      fqdn: `${dev.hostname}.${dev.site.domain}`,
      domain: dev.site.domain,
      stpDomain: isSwitch(dev) ? `${dev.site.code}-stp1` : null,
      configReg: p.configReg ? (unit(seed, TAG.extra, dev.index, 8) < RECOVERY_REGISTER ? '0x2142' : '0x2102') : null,
      objectId: p.objectId,
      taskKey: uuidFrom(seed, generation, dev.index),
      slug: dev.hostname,
    }
  }
}

/** Distinct networks configured at the site (what managed-devs lists). */
export function siteNetworks(model: SiteModel): Set<string> {
  const nets = new Set<string>()
  for (const list of model.interfaces.values()) for (const i of list) if (i.ip !== null && i.prefix !== null) nets.add(networkString(i.ip, i.prefix))
  return nets
}

export function* siteRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  const count = (pred: (t: string) => boolean) => model.devices.filter((d) => pred(d.devType)).length
  yield {
    id: `s${model.site.index}`,
    siteName: model.site.name,
    devicesCount: model.devices.length,
    routersCount: count((t) => t === 'router'),
    switchesCount: count((t) => t === 'switch' || t === 'l3switch'),
    networksCount: siteNetworks(model).size,
    usersCount: model.hosts.length,
    vlanCount: model.vlans.length,
  }
}
