/**
 * Varbinds written as an snmpsim recording (`.snmprec`: one `oid|tag|value` line per varbind, in
 * OID order, which is the order snmpsim walks them in).
 */

export type RecValue =
  | { type: 'int'; value: number }
  | { type: 'string'; value: string }
  | { type: 'hex'; value: Buffer }
  | { type: 'oid'; value: string }
  | { type: 'ip'; value: string }
  | { type: 'counter32' | 'gauge32' | 'timeticks' | 'counter64'; value: number }

export type Varbind = readonly [oid: string, value: RecValue]

export const int = (value: number): RecValue => ({ type: 'int', value })
export const str = (value: string): RecValue => ({ type: 'string', value })
export const hex = (value: Buffer | number[]): RecValue => ({ type: 'hex', value: Buffer.from(value) })
export const oid = (value: string): RecValue => ({ type: 'oid', value })
export const gauge = (value: number): RecValue => ({ type: 'gauge32', value })
export const counter32 = (value: number): RecValue => ({ type: 'counter32', value })
export const ticks = (value: number): RecValue => ({ type: 'timeticks', value })
export const counter64 = (value: number): RecValue => ({ type: 'counter64', value })

/** snmprec tags: the BER type numbers (an `x` suffix: the value in hex). */
const TAG: Record<RecValue['type'], string> = { int: '2', string: '4', hex: '4x', oid: '6', ip: '64', counter32: '65', gauge32: '66', timeticks: '67', counter64: '70' }

function compareOid(a: string, b: string): number {
  const x = a.split('.').map(Number)
  const y = b.split('.').map(Number)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

export function snmprec(varbinds: readonly Varbind[]): string {
  const seen = new Set<string>()
  const lines = [...varbinds]
    .sort(([a], [b]) => compareOid(a, b))
    .map(([o, v]) => {
      if (seen.has(o)) throw new Error(`${o} recorded twice`)
      seen.add(o)
      const text = v.type === 'hex' ? v.value.toString('hex') : String(v.value)
      if (/[\r\n]/.test(text)) throw new Error(`${o}: a value on one line only`)
      return `${o}|${TAG[v.type]}|${text}`
    })
  return `${lines.join('\n')}\n`
}
