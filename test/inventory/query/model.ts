/**
 * A plain in-memory evaluation of table requests, written from the documented semantics (not from
 * the SQL): the property test compares the engine with it.
 */
import type { Item } from './fixture.js'

type Row = Item & Record<string, unknown>

function ipv4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0)
}

function inCidr(ip: string, cidr: string): boolean {
  const [net = '', bits = '32'] = cidr.split('/')
  const size = 2 ** (32 - Number(bits))
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(net) / size)
}

function isEmpty(v: unknown): boolean {
  return v === null || v === '' || (Array.isArray(v) && v.length === 0)
}

/** Positive scalar operators; null values never match. */
function positive(v: unknown, op: string, arg: unknown): boolean {
  if (v === null || v === undefined) return false
  switch (op) {
    case 'eq':
      return v === arg
    case 'ieq':
      return String(v).toLowerCase() === String(arg).toLowerCase()
    case 'like':
      return String(v).toLowerCase().includes(String(arg).toLowerCase())
    case 'reg':
      return new RegExp(String(arg)).test(String(v))
    case 'ireg':
      return new RegExp(String(arg), 'i').test(String(v))
    case 'gt':
      return (v as number) > (arg as number)
    case 'gte':
      return (v as number) >= (arg as number)
    case 'lt':
      return (v as number) < (arg as number)
    case 'lte':
      return (v as number) <= (arg as number)
    case 'cidr':
      return inCidr(String(v), String(arg))
    default:
      throw new Error(`model: operator ${op}`)
  }
}

const NEGATIONS: Record<string, string> = { neq: 'eq', nieq: 'ieq', notlike: 'like', nreg: 'reg', nireg: 'ireg' }

export function scalar(v: unknown, op: string, arg: unknown): boolean {
  if (op === 'empty') return arg ? isEmpty(v) : !isEmpty(v)
  if (arg === null) return op === 'eq' ? v === null : v !== null
  const neg = NEGATIONS[op]
  return neg ? !positive(v, neg, arg) : positive(v, op, arg)
}

/** The one colour rule of the property test, on `count`. */
export function severityOf(row: Row): number {
  if (row.count !== null && row.count > 3) return 30
  if (row.name !== null && row.name.toLowerCase().includes('a')) return 20
  if (row.count !== null && row.count <= 0) return 0
  return -1
}

export function matches(row: Row, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (key === 'and') return (cond as Array<Record<string, unknown>>).every((f) => matches(row, f))
    if (key === 'or') {
      const list = cond as Array<Record<string, unknown>>
      return list.length === 0 || list.some((f) => matches(row, f))
    }
    const c = cond as unknown[]
    const v = row[key]
    if (c[0] === 'column') {
      const other = row[c[2] as string] ?? null
      const pos = (op: string) => v !== null && other !== null && positive(v, op, other)
      return c[1] === 'neq' ? !pos('eq') : pos(c[1] as string)
    }
    if (c[0] === 'color') return c[1] === 'neq' ? severityOf(row) !== c[2] : positive(severityOf(row), c[1] as string, c[2])
    if (c[0] === 'any') return ((v as unknown[] | null) ?? []).some((e) => scalar(e, c[1] as string, c[2]))
    if (c[0] === 'all') return ((v as unknown[] | null) ?? []).every((e) => scalar(e, c[1] as string, c[2]))
    return scalar(v, c[0] as string, c[1])
  })
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  return (a as number | string) < (b as number | string) ? -1 : 1
}

/** Sorts like the engine: the column, nulls last ascending / first descending, then id. */
export function sortRows(rows: Row[], column: string, order: 'asc' | 'desc'): Row[] {
  const dir = order === 'asc' ? 1 : -1
  return [...rows].sort((x, y) => {
    const a = x[column] ?? null
    const b = y[column] ?? null
    if (a === null && b !== null) return dir
    if (b === null && a !== null) return -dir
    return dir * compare(a, b) || dir * compare(x.id, y.id)
  })
}
