/** ENTITY-MIB entPhysicalTable: chassis serial and model, modules, power supplies, fans. */
import type { MibReader } from '../snmp/client.js'
import { int, text } from '../snmp/values.js'
import type { EntityPart, PhysicalClass } from '../model.js'

const BASE = '1.3.6.1.2.1.47.1.1.1.1'
export const ENT_PHYSICAL = {
  descr: `${BASE}.2`,
  containedIn: `${BASE}.4`,
  class: `${BASE}.5`,
  name: `${BASE}.7`,
  hardwareRev: `${BASE}.8`,
  firmwareRev: `${BASE}.9`,
  softwareRev: `${BASE}.10`,
  serial: `${BASE}.11`,
  mfgName: `${BASE}.12`,
  model: `${BASE}.13`,
}

const CLASSES: readonly PhysicalClass[] = ['other', 'unknown', 'chassis', 'backplane', 'container', 'powerSupply', 'fan', 'sensor', 'module', 'port', 'stack', 'cpu']

const clean = (s: string | null) => (s === null || s.trim() === '' ? null : s.trim())

export async function collectEntity(client: MibReader): Promise<EntityPart[]> {
  const rows = await client.table(ENT_PHYSICAL)
  return rows.map((row) => {
    const cls = int(row.cells.class)
    const parent = int(row.cells.containedIn)
    return {
      index: row.index[0]!,
      class: cls !== null && cls >= 1 && cls <= CLASSES.length ? CLASSES[cls - 1]! : 'unknown',
      parent: parent === null || parent === 0 ? null : parent,
      name: clean(text(row.cells.name)),
      descr: clean(text(row.cells.descr)),
      serial: clean(text(row.cells.serial)),
      model: clean(text(row.cells.model)),
      hardwareRev: clean(text(row.cells.hardwareRev)),
      firmwareRev: clean(text(row.cells.firmwareRev)),
      softwareRev: clean(text(row.cells.softwareRev)),
      mfgName: clean(text(row.cells.mfgName)),
    }
  })
}

/** The chassis: the first chassis-class entry without a chassis above it. */
export function chassisOf(parts: readonly EntityPart[]): EntityPart | null {
  const chassis = parts.filter((p) => p.class === 'chassis')
  return chassis.find((c) => c.parent === null || !chassis.some((o) => o.index === c.parent)) ?? chassis[0] ?? null
}
