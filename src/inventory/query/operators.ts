/**
 * Which operators fit which column types, and the normalisation of a filter value into the
 * parameter its SQL compares with. A value that cannot be normalised is a 422 naming the column.
 */
import { isIP } from 'node:net'
import type { ColumnType } from '../catalog/types.js'
import { invalidInput } from '../../shared/errors.js'
import { checkPattern, PatternError } from './pattern.js'
import type { CompareOperator, ValueOperator } from './types.js'

export type ScalarType = 'string' | 'mac' | 'integer' | 'timestamp' | 'number' | 'boolean' | 'ip' | 'network'

const TEXT_OPS: readonly ValueOperator[] = ['eq', 'neq', 'ieq', 'nieq', 'like', 'notlike', 'reg', 'nreg', 'ireg', 'nireg', 'empty']
const NUMBER_OPS: readonly ValueOperator[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'empty']
const ADDRESS_OPS: readonly ValueOperator[] = ['eq', 'neq', 'like', 'notlike', 'reg', 'nreg', 'ireg', 'nireg', 'empty', 'cidr']

/** Value operators each column type accepts (arrays: `empty`, plus `any`/`all` over the element). */
export const OPERATORS_BY_TYPE: Readonly<Record<ColumnType, readonly ValueOperator[]>> = {
  string: TEXT_OPS,
  mac: TEXT_OPS,
  integer: NUMBER_OPS,
  timestamp: NUMBER_OPS,
  number: NUMBER_OPS,
  boolean: ['eq', 'neq', 'empty'],
  ip: ADDRESS_OPS,
  network: ADDRESS_OPS,
  stringArray: ['empty'],
  integerArray: ['empty'],
  ipArray: ['empty'],
  json: ['empty', 'like', 'notlike'],
}

/** Element type of an array column; undefined for scalars. */
export function elementType(type: ColumnType): ScalarType | undefined {
  if (type === 'stringArray') return 'string'
  if (type === 'integerArray') return 'integer'
  if (type === 'ipArray') return 'ip'
  return undefined
}

/** Families whose members may be compared column to column. */
export function family(type: ColumnType): 'text' | 'numeric' | 'boolean' | 'address' | undefined {
  if (type === 'string' || type === 'mac') return 'text'
  if (type === 'integer' || type === 'timestamp' || type === 'number') return 'numeric'
  if (type === 'boolean') return 'boolean'
  if (type === 'ip' || type === 'network') return 'address'
  return undefined
}

/** Operators of `["column", op, other]` for a family. */
export function columnOperators(fam: ReturnType<typeof family>): readonly CompareOperator[] {
  if (fam === 'numeric') return ['eq', 'neq', 'gt', 'gte', 'lt', 'lte']
  if (fam === undefined) return []
  return ['eq', 'neq']
}

/** Longest accepted regular expression or `like` text. */
export const MAX_PATTERN_LENGTH = 1000

const MAC_HEX = /^[0-9a-f]{12}$/

/** "AABB.CCDD.EEFF", "aa-bb-cc-dd-ee-ff", "aabbccddeeff" → "aa:bb:cc:dd:ee:ff"; other text unchanged. */
export function normaliseMac(value: string): string {
  const hex = value.toLowerCase().replace(/[.:-]/g, '')
  if (!MAC_HEX.test(hex) || !/^[0-9a-fA-F.:-]+$/.test(value)) return value
  return hex.match(/../g)!.join(':')
}

/** An address, optionally with a prefix length: "10.0.0.1", "10.0.0.0/8", "2001:db8::/32". */
export function isAddress(value: string, requirePrefix = false): boolean {
  const [addr = '', prefix, ...rest] = value.split('/')
  if (rest.length > 0) return false
  const version = isIP(addr)
  if (version === 0) return false
  if (prefix === undefined) return !requirePrefix
  if (!/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (version === 4 ? 32 : 128)
}

function bad(path: string, column: string, message: string): never {
  throw invalidInput([{ message: `"${path}" ${message} (column ${column})` }])
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value)
  return undefined
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (value === 'true') return true
  if (value === 'false') return false
  return undefined
}

function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** The text of a value compared as text; PostgreSQL text cannot hold U+0000. */
function textValue(value: unknown, op: ValueOperator, path: string, column: string): string {
  const text = toText(value)
  if (text === undefined) bad(path, column, `value of "${op}" must be a string`)
  if (text.includes('\0')) bad(path, column, `value of "${op}" must not contain the character U+0000`)
  return text
}

const REGEX_OPERATORS: ReadonlySet<ValueOperator> = new Set(['reg', 'nreg', 'ireg', 'nireg'])

/** Integer columns compared with a fraction: round so that the comparison keeps its meaning. */
function integerBound(op: ValueOperator, n: number): number {
  if (Number.isInteger(n)) return n
  return op === 'gt' || op === 'lte' ? Math.floor(n) : Math.ceil(n)
}

/**
 * Normalises the value of `op` on a scalar of type `type`; null means "compare with null"
 * (eq/neq only). Throws a 422 naming `column` when the value does not fit.
 */
export function normaliseValue(type: ScalarType | 'json' | 'array', op: ValueOperator, value: unknown, path: string, column: string): unknown {
  if (op === 'empty') {
    const b = toBoolean(value)
    if (b === undefined) bad(path, column, 'value of "empty" must be true or false')
    return b
  }
  if (value === null) {
    if (op === 'eq' || op === 'neq') return null
    bad(path, column, `value of "${op}" must not be null`)
  }
  switch (op) {
    case 'like':
    case 'notlike':
    case 'reg':
    case 'nreg':
    case 'ireg':
    case 'nireg':
    case 'ieq':
    case 'nieq': {
      const text = textValue(value, op, path, column)
      if (text.length > MAX_PATTERN_LENGTH) bad(path, column, `value of "${op}" must be at most ${MAX_PATTERN_LENGTH} characters`)
      if (REGEX_OPERATORS.has(op)) {
        try {
          checkPattern(text)
        } catch (err) {
          if (err instanceof PatternError) bad(path, column, `regular expression ${err.message}`)
          throw err
        }
      }
      return text
    }
    case 'cidr': {
      if (typeof value !== 'string' || !isAddress(value.trim())) bad(path, column, 'value of "cidr" must be a network such as "10.0.0.0/8"')
      return value.trim()
    }
    default:
      return normaliseComparable(type, op, value, path, column)
  }
}

function normaliseComparable(type: ScalarType | 'json' | 'array', op: ValueOperator, value: unknown, path: string, column: string): unknown {
  switch (type) {
    case 'integer':
    case 'timestamp':
    case 'number': {
      const n = toNumber(value)
      if (n === undefined) bad(path, column, `value of "${op}" must be a number`)
      if (type === 'number') return n
      if ((op === 'eq' || op === 'neq') && !Number.isInteger(n)) bad(path, column, `value of "${op}" must be an integer`)
      return integerBound(op, n)
    }
    case 'boolean': {
      const b = toBoolean(value)
      if (b === undefined) bad(path, column, `value of "${op}" must be true or false`)
      return b
    }
    case 'ip':
    case 'network': {
      if (typeof value !== 'string' || !isAddress(value.trim(), false)) bad(path, column, `value of "${op}" must be an IP address`)
      return value.trim()
    }
    case 'mac':
      return normaliseMac(textValue(value, op, path, column))
    default:
      return textValue(value, op, path, column)
  }
}
