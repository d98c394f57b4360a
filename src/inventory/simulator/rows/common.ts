/** Helpers shared by the row generators. */
import type { SimDevice } from '../network.js'
import type { SiteModel } from '../model.js'
import { OUI_VENDOR, HOST_VENDORS } from '../platforms.js'

export type Row = Record<string, unknown>

/** A table's rows for one site. */
export type SiteRows = (model: SiteModel) => Iterable<Row>

/** "1Gbps", "100Mbps", "2.5Gbps"; null when unknown. */
export function formatSpeed(bps: number | null): string | null {
  if (bps === null) return null
  if (bps >= 1e9) return `${bps / 1e9}Gbps`
  return `${bps / 1e6}Mbps`
}

const HOST_OUI = new Map<string, string>(HOST_VENDORS.map((v) => [v.oui.toString(16).padStart(6, '0'), v.vendor]))

/** Vendor registered for a MAC address prefix, null when unknown. */
export function macVendor(mac: string): string | null {
  const oui = mac.slice(0, 8).replace(/:/g, '')
  return HOST_OUI.get(oui) ?? OUI_VENDOR.get(parseInt(oui, 16)) ?? null
}

/** The columns that name the device a row was collected from (sn, hostname, siteName). */
export function deviceFields(dev: SimDevice): { sn: string; hostname: string; siteName: string } {
  return { sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name }
}

export function isL3(dev: SimDevice): boolean {
  return dev.role === 'router' || dev.role === 'dist' || dev.role === 'fw'
}

export function isSwitch(dev: SimDevice): boolean {
  return dev.role === 'access' || dev.role === 'dist'
}

/**
 * The dynamic entries per port of a switch's MAC table rows (addressing/mac), keyed
 * `<device>|<intName>` with the device named by its column `by`: what a switch port's
 * `dynamicMacCount` is, for the simulator and for discovery alike.
 */
export function dynamicMacsPerPort(rows: Iterable<Row>, by: 'sn' | 'hostname'): Map<string, number> {
  const counts = new Map<string, number>()
  for (const m of rows) {
    if (m.type !== 'dynamic') continue
    const key = `${String(m[by])}|${String(m.intName)}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}
