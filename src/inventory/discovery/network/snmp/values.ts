/**
 * Reading varbinds: values as text, integers, MAC and IP addresses, and table rows assembled
 * from walked columns by their index.
 */
import snmp from 'net-snmp'
import { ipv6Text } from '../../../../shared/ipv6.js'

export interface Vb {
  oid: string
  type: number
  value: unknown
}

const END_TYPES = new Set<number>([snmp.ObjectType.EndOfMibView, snmp.ObjectType.NoSuchObject, snmp.ObjectType.NoSuchInstance])

/** Whether a varbind of a column walk is past the column (or marks the end of the agent's view). */
export function isEndOfColumn(vb: { oid: string; type?: number }, column: string): boolean {
  return (vb.type !== undefined && END_TYPES.has(vb.type)) || !vb.oid.startsWith(`${column}.`)
}

/** Text of an OCTET STRING (trailing NULs dropped), or null. */
export function text(vb: Vb | undefined): string | null {
  if (!vb) return null
  const v = vb.value
  if (Buffer.isBuffer(v)) return v.toString('utf8').replace(/\0+$/, '')
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'bigint') return String(v)
  return null
}

/** An integer value (Counter64 included, as a safe number), or null. */
export function int(vb: Vb | undefined): number | null {
  if (!vb) return null
  const v = vb.value
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'bigint') return Number(v)
  if (Buffer.isBuffer(v) && vb.type === snmp.ObjectType.Counter64) {
    let n = 0n
    for (const b of v) n = (n << 8n) | BigInt(b)
    return Number(n)
  }
  return null
}

/** A TruthValue (or any enumeration of true(1) and false(2), such as enabled(1), disabled(2)), or null. */
export function truthValue(vb: Vb | undefined): boolean | null {
  const n = int(vb)
  return n === 1 ? true : n === 2 ? false : null
}

/** A reading computed from an integer and its scale, without the binary fraction's noise (0.007252 × 1000 is 7.252, not 7.252000000000001). */
export const decimal = (x: number): number => Number(x.toPrecision(12))

/** A TimeTicks value (hundredths of a second) in whole seconds, or null. */
export function seconds(vb: Vb | undefined): number | null {
  const n = int(vb)
  return n === null ? null : Math.floor(n / 100)
}

export function macFromBytes(bytes: Buffer | readonly number[]): string | null {
  if (bytes.length !== 6) return null
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
  const mac = hex.join(':')
  return mac === '00:00:00:00:00:00' ? null : mac
}

/** A MAC address from six octets, or null (empty, zero, or another length). */
export function mac(vb: Vb | undefined): string | null {
  if (!vb || !Buffer.isBuffer(vb.value)) return null
  return macFromBytes(vb.value)
}

/** Value of an OBJECT IDENTIFIER or IpAddress varbind as a string. */
export function str(vb: Vb | undefined): string | null {
  if (!vb) return null
  return typeof vb.value === 'string' ? vb.value : text(vb)
}

/** Order of two OIDs as SNMP walks them (numerically, sub-identifier by sub-identifier). */
export function compareOid(a: string, b: string): number {
  const x = a.split('.').map(Number)
  const y = b.split('.').map(Number)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/** Numbers of the OID after the column: the row's index. */
export function indexOf(oid: string, column: string): number[] {
  return oid.slice(column.length + 1).split('.').map(Number)
}

/** An IPv4 address from four index numbers starting at `at`. */
export function ipFromIndex(parts: readonly number[], at: number): string | null {
  const four = parts.slice(at, at + 4)
  return four.length === 4 && four.every((n) => Number.isInteger(n) && n >= 0 && n <= 255) ? four.join('.') : null
}

export { ipv6Text }

/**
 * An InetAddress in an index (type, length, octets) starting at `at`: the address (IPv4 dotted,
 * IPv6 as RFC 5952 text), whether it carried a zone (ipv4z, ipv6z: the zone index is dropped,
 * the interface of the row names it), and where the next index part starts. Null for an unknown
 * type or an empty address.
 */
export function inetFromIndex(parts: readonly number[], at: number): { family: 4 | 6; address: string; next: number; zoned: boolean } | null {
  const type = parts[at]
  const len = parts[at + 1]
  if (len === undefined) return null
  const bytes = parts.slice(at + 2, at + 2 + len)
  if (bytes.length !== len || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) return null
  const next = at + 2 + len
  if ((type === 1 && len === 4) || (type === 3 && len === 8)) return { family: 4, address: bytes.slice(0, 4).join('.'), next, zoned: type === 3 }
  if ((type === 2 && len === 16) || (type === 4 && len === 20)) return { family: 6, address: ipv6Text(bytes.slice(0, 16)), next, zoned: type === 4 }
  return null
}

export interface TableRow {
  /** Index of the row as numbers. */
  index: number[]
  /** The row's cells by the names the caller gave the columns. */
  cells: Record<string, Vb | undefined>
}

/** Rows of a table from its walked columns (`names`: name → column OID), in index order of first appearance. */
export function tableRows(walked: Map<string, Vb[]>, names: Readonly<Record<string, string>>): TableRow[] {
  const rows = new Map<string, TableRow>()
  for (const [name, column] of Object.entries(names)) {
    for (const vb of walked.get(column) ?? []) {
      const key = vb.oid.slice(column.length + 1)
      let row = rows.get(key)
      if (!row) {
        row = { index: key.split('.').map(Number), cells: {} }
        rows.set(key, row)
      }
      row.cells[name] = vb
    }
  }
  return [...rows.values()]
}

/** Rows of a table by one part of their index (say, an instance's rows of a table indexed by instance and port), in their order. */
export function rowsBy(rows: Iterable<TableRow>, at: number): Map<number, TableRow[]> {
  const out = new Map<number, TableRow[]>()
  for (const row of rows) {
    const key = row.index[at]!
    const list = out.get(key)
    if (list) list.push(row)
    else out.set(key, [row])
  }
  return out
}
