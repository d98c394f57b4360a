/**
 * Rows of inventory/pn and of the tables about the same parts: fans, power supplies, modules and
 * their end-of-life milestones. Every part comes from one list per device (`deviceParts`), so a
 * fan tray has the same name and serial number in inventory/pn and inventory/fans.
 */
import { TAG, between, unit } from '../prng.js'
import type { SimDevice, SimNetwork } from '../network.js'
import type { SiteModel } from '../model.js'
import { MILESTONES } from '../platforms.js'
import { deviceFields, type Row } from './common.js'

const PSU_PIDS: Readonly<Record<string, string>> = {
  cisco: 'PWR-C1-715WAC-P',
  juniper: 'JPSU-920-AC-AFO',
  arista: 'PWR-500AC-F',
  aruba: 'R0X35A',
  fortinet: 'SP-FG600C-PS',
  paloalto: 'PAN-PWR-650W-AC',
}
const OPTIC_DSCR: Readonly<Record<string, string>> = {
  'SFP-10G-SR': '10GBASE-SR SFP+ Module',
  'SFP-25G-SR-S': '25GBASE-SR SFP28 Module',
  'QSFP-100G-SR4': '100GBASE-SR4 QSFP Module',
}

/** Hardware failures last: a part that fails stays failed for about a month of discoveries. */
const FAILURE_SPAN = 30
const FAN_FAIL = 0.005
const PSU_FAIL = 0.003
/** A second power supply inserted without a power cord. */
const PSU_UNPLUGGED = 0.02
const MODULE_DOWN = 0.003
const MODULE_ERR = 0.002

export interface Part {
  kind: 'chassis' | 'psu' | 'fan' | 'optic'
  /** Position among the device's parts of its kind (1-based); the stack member for chassis parts. */
  n: number
  name: string
  sn: string
  pid: string
  dscr: string
  vid: string | null
}

const serial = (prefix: string, n: number) => `${prefix}${n.toString(36).toUpperCase().padStart(6, '0')}`

/** Every field-replaceable part of a device, in inventory order. */
export function deviceParts(dev: SimDevice, model: SiteModel): Part[] {
  const p = dev.platform
  const parts: Part[] = []
  for (let m = 1; m <= dev.members; m++) {
    parts.push({ kind: 'chassis', n: m, name: dev.members > 1 ? `Switch ${m}` : 'Chassis', sn: m === 1 ? dev.sn : `${dev.sn}S${m}`, pid: p.model, dscr: `${p.vendor} ${p.model} chassis`, vid: 'V02' })
  }
  for (let i = 1; i <= p.psus; i++) {
    parts.push({ kind: 'psu', n: i, name: `Power Supply ${i}`, sn: serial('LIT', dev.index * 16 + i), pid: PSU_PIDS[p.vendor] ?? 'PSU-AC', dscr: 'AC power supply', vid: 'V01' })
  }
  for (let i = 1; i <= p.fans; i++) parts.push({ kind: 'fan', n: i, name: `Fan Tray ${i}`, sn: serial('FAN', dev.index * 16 + i), pid: `${p.model}-FAN`, dscr: 'Fan module', vid: 'V01' })
  for (const intf of model.interfaces.get(dev)!) {
    if (!intf.transceiver) continue
    parts.push({ kind: 'optic', n: intf.slot, name: intf.name, sn: serial('AVD', dev.index * 1024 + intf.slot), pid: intf.transceiver, dscr: OPTIC_DSCR[intf.transceiver] ?? 'Transceiver', vid: null })
  }
  return parts
}


export function* partRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    const p = dev.platform
    for (const part of deviceParts(dev, model)) {
      yield {
        id: `${dev.sn}/${part.name}`,
        sn: part.sn,
        deviceSn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.site.name,
        name: part.name,
        dscr: part.dscr,
        pid: part.pid,
        vid: part.vid,
        vendor: p.vendor,
        platform: p.platform,
        model: p.model,
      }
    }
  }
}

/** Rows of one kind of part with a state: fans, power supplies or modules (chassis parts). */
function* partsOfKind(net: SimNetwork, model: SiteModel, kind: Part['kind'], extra: (dev: SimDevice, part: Part, era: number) => Row): Generator<Row> {
  const era = Math.floor(net.settings.generation / FAILURE_SPAN)
  for (const dev of model.devices) {
    for (const part of deviceParts(dev, model)) {
      if (part.kind === kind) yield { id: `${dev.sn}/${part.name}`, ...deviceFields(dev), name: part.name, partSn: part.sn, ...extra(dev, part, era) }
    }
  }
}

export function fanRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  return partsOfKind(net, model, 'fan', (dev, part, era) => {
    const failed = unit(seed, TAG.environment, dev.index, part.n, era, 1) < FAN_FAIL
    return { fanState: failed ? 'fail' : 'ok', speed: failed ? null : between(4200, 9800, seed, TAG.environment, dev.index, part.n, generation, 2) }
  })
}

export function powerSupplyRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed } = net.settings
  return partsOfKind(net, model, 'psu', (dev, part, era) => {
    const u = unit(seed, TAG.environment, dev.index, part.n, era, 3)
    const unplugged = part.n === 2 && unit(seed, TAG.environment, dev.index, 4) < PSU_UNPLUGGED
    return { dscr: part.dscr, pid: part.pid, pwSupplyState: u < PSU_FAIL ? 'fail' : unplugged ? 'present' : 'ok' }
  })
}

export function moduleRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed } = net.settings
  return partsOfKind(net, model, 'chassis', (dev, part, era) => {
    // the first member runs the stack: it is up whenever the device answers discovery
    const u = part.n === 1 ? 1 : unit(seed, TAG.environment, dev.index, part.n, era, 5)
    return { dscr: part.dscr, pid: part.pid, moduleState: u < MODULE_ERR ? 'err-disabled' : u < MODULE_ERR + MODULE_DOWN ? 'powered-down' : 'powered-up' }
  })
}

export function* eofRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    for (const part of deviceParts(dev, model)) {
      const m = MILESTONES.get(part.pid)
      if (!m) continue
      yield { id: `${dev.sn}/${part.name}`, ...deviceFields(dev), vendor: dev.platform.vendor, pid: part.pid, partSn: part.sn, replacement: m.replacement, endSale: m.endSale, endMaintenance: m.endMaintenance, endSupport: m.endSupport }
    }
  }
}
