/**
 * The vendor a MAC address is registered to: the IEEE's registries as the `oui-data` package
 * ships them, MA-L (the first 24 bits, the OUI), MA-M (28 bits) and MA-S (36 bits), the longest
 * assignment that holds the address winning (an MA-M or MA-S block lies inside an OUI the IEEE
 * itself holds). Its 5 MB of JSON are read on the first lookup of a process, not at start, and
 * only each organisation's name (the first line of its entry) is kept. A locally administered
 * address (a virtual machine's, a randomised phone's) and a group address belong to no
 * registered vendor: null, as an address no registry lists.
 */
import { createRequire } from 'node:module'

let table: Map<string, string> | null = null

function load(): Map<string, string> {
  const require = createRequire(import.meta.url)
  const data = require('oui-data') as Record<string, string>
  const out = new Map<string, string>()
  for (const [oui, entry] of Object.entries(data)) {
    const name = entry.split('\n', 1)[0]!.trim()
    if (name !== '') out.set(oui, name)
  }
  return out
}

/** The registered vendor of a MAC address ("aa:bb:cc:dd:ee:ff", "aabb.ccdd.eeff", …), or null. */
export function ouiVendor(mac: string | null): string | null {
  if (mac === null) return null
  const hex = mac.replace(/[^0-9a-f]/gi, '').toUpperCase()
  if (hex.length !== 12) return null
  const first = parseInt(hex.slice(0, 2), 16)
  // I/G bit: a group address; U/L bit: locally administered, never registered
  if ((first & 0x03) !== 0) return null
  table ??= load()
  return table.get(hex.slice(0, 9)) ?? table.get(hex.slice(0, 7)) ?? table.get(hex.slice(0, 6)) ?? null
}
