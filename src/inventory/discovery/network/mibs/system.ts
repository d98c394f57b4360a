/** SNMPv2-MIB system group and the memory of HOST-RESOURCES-MIB. */
import type { MibReader } from '../snmp/client.js'
import { int, seconds, str, text } from '../snmp/values.js'
import type { Memory, SystemInfo } from '../model.js'

export const SYSTEM = {
  descr: '1.3.6.1.2.1.1.1.0',
  objectId: '1.3.6.1.2.1.1.2.0',
  uptime: '1.3.6.1.2.1.1.3.0',
  contact: '1.3.6.1.2.1.1.4.0',
  name: '1.3.6.1.2.1.1.5.0',
  location: '1.3.6.1.2.1.1.6.0',
} as const

/** The first request to a device: proves the credential and names the device. */
export async function collectSystem(client: MibReader): Promise<SystemInfo> {
  const v = await client.get(Object.values(SYSTEM))
  return {
    name: text(v.get(SYSTEM.name)) || null,
    descr: text(v.get(SYSTEM.descr)) || null,
    objectId: str(v.get(SYSTEM.objectId)),
    uptimeSeconds: seconds(v.get(SYSTEM.uptime)),
    location: text(v.get(SYSTEM.location)) || null,
    contact: text(v.get(SYSTEM.contact)) || null,
  }
}

const HR_STORAGE = {
  type: '1.3.6.1.2.1.25.2.3.1.2',
  units: '1.3.6.1.2.1.25.2.3.1.4',
  size: '1.3.6.1.2.1.25.2.3.1.5',
  used: '1.3.6.1.2.1.25.2.3.1.6',
}
/** hrStorageRam: the storage entry of main memory. */
const HR_STORAGE_RAM = '1.3.6.1.2.1.25.2.1.2'

/** Main memory (hrStorageRam); null when the agent has no HOST-RESOURCES-MIB. */
export async function collectMemory(client: MibReader): Promise<Memory | null> {
  for (const row of await client.table(HR_STORAGE)) {
    if (str(row.cells.type) !== HR_STORAGE_RAM) continue
    const units = int(row.cells.units)
    const size = int(row.cells.size)
    const used = int(row.cells.used)
    if (units === null || size === null || used === null) return null
    return { totalBytes: units * size, usedBytes: units * used }
  }
  return null
}
