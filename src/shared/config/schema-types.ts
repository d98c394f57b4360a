/**
 * A small, typed description language for configuration: each node carries its default and a
 * description (docs/operations.md is generated from them). `validate` walks a node and a value.
 */
import { hasOwnKey } from '../own.js'
export type SchemaNode =
  | { type: 'integer'; default: number | null; min?: number; max?: number; description: string }
  | { type: 'boolean'; default: boolean; description: string }
  | { type: 'string'; default: string; enum?: readonly string[]; pattern?: RegExp; description: string }
  | { type: 'datetime'; default: string | null; description: string }
  | { type: 'stringList'; default: readonly string[]; pattern?: RegExp; description: string }
  | { type: 'integerMap'; default: Readonly<Record<string, number>>; min?: number; keyPattern?: RegExp; description: string }
  | { type: 'object'; properties: Readonly<Record<string, SchemaNode>>; description: string }
  | {
      type: 'record'
      values: SchemaNode & { type: 'object' }
      default: Readonly<Record<string, unknown>>
      keyPattern?: RegExp
      /** Documented key by key, under `<record>.<expand>.` (e.g. `upstreams.<name>.url`), not as one row. */
      expand?: string
      description: string
    }

export class ConfigError extends Error {
  readonly key: string
  constructor(key: string, problem: string) {
    super(`config ${key}: ${problem}`)
    this.name = 'ConfigError'
    this.key = key
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/

/** A real RFC 3339 date-time: the pattern, and a calendar day that exists (no 30 February). */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1) return false
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return day <= daysInMonth
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Fills defaults, rejects unknown keys and bad values (ConfigError names the key). */
export function validate(node: SchemaNode, value: unknown, key: string): unknown {
  switch (node.type) {
    case 'integer': {
      if (value === undefined) return node.default
      if (value === null && node.default === null) return null
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new ConfigError(key, node.default === null ? 'must be an integer or null' : 'must be an integer')
      if (node.min !== undefined && value < node.min) throw new ConfigError(key, `must be >= ${node.min}`)
      if (node.max !== undefined && value > node.max) throw new ConfigError(key, `must be <= ${node.max}`)
      return value
    }
    case 'boolean':
      if (value === undefined) return node.default
      if (typeof value !== 'boolean') throw new ConfigError(key, 'must be true or false')
      return value
    case 'string':
      if (value === undefined) return node.default
      if (typeof value !== 'string') throw new ConfigError(key, 'must be a string')
      if (node.enum && !node.enum.includes(value)) throw new ConfigError(key, `must be one of ${node.enum.join(', ')}`)
      if (node.pattern && !node.pattern.test(value)) throw new ConfigError(key, `must match ${node.pattern}`)
      return value
    case 'datetime':
      if (value === undefined) return node.default
      if (value === null) return null
      if (typeof value !== 'string' || !isRfc3339(value)) {
        throw new ConfigError(key, 'must be an RFC 3339 date-time such as 2026-02-01T00:00:00Z, or null')
      }
      return value
    case 'stringList': {
      if (value === undefined) return [...node.default]
      if (!Array.isArray(value)) throw new ConfigError(key, 'must be an array of strings')
      return value.map((item, i) => {
        if (typeof item !== 'string') throw new ConfigError(`${key}[${i}]`, 'must be a string')
        if (node.pattern && !node.pattern.test(item)) throw new ConfigError(`${key}[${i}]`, `must match ${node.pattern}`)
        return item
      })
    }
    case 'integerMap': {
      if (value === undefined) return { ...node.default }
      if (!isPlainObject(value)) throw new ConfigError(key, 'must be an object of integers')
      const out: Record<string, number> = {}
      for (const [k, v] of Object.entries(value)) {
        if (node.keyPattern && !node.keyPattern.test(k)) throw new ConfigError(`${key}.${k}`, `key must match ${node.keyPattern}`)
        if (typeof v !== 'number' || !Number.isInteger(v)) throw new ConfigError(`${key}.${k}`, 'must be an integer')
        if (node.min !== undefined && v < node.min) throw new ConfigError(`${key}.${k}`, `must be >= ${node.min}`)
        out[k] = v
      }
      return out
    }
    case 'object': {
      const input = value === undefined ? {} : value
      if (!isPlainObject(input)) throw new ConfigError(key, 'must be an object')
      for (const k of Object.keys(input)) {
        if (!hasOwnKey(node.properties, k)) throw new ConfigError(key ? `${key}.${k}` : k, 'unknown key')
      }
      const out: Record<string, unknown> = {}
      for (const [k, child] of Object.entries(node.properties)) {
        out[k] = validate(child, input[k], key ? `${key}.${k}` : k)
      }
      return out
    }
    case 'record': {
      const input = value === undefined ? node.default : value
      if (!isPlainObject(input)) throw new ConfigError(key, 'must be an object')
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(input)) {
        if (node.keyPattern && !node.keyPattern.test(k)) throw new ConfigError(`${key}.${k}`, `key must match ${node.keyPattern}`)
        out[k] = validate(node.values, v, `${key}.${k}`)
      }
      return out
    }
  }
}

/** Every leaf key with its node, in schema order (for docs and the Helm values schema). */
export function leaves(node: SchemaNode, key = ''): Array<{ key: string; node: SchemaNode }> {
  if (node.type === 'object') {
    return Object.entries(node.properties).flatMap(([k, child]) => leaves(child, key ? `${key}.${k}` : k))
  }
  if (node.type === 'record' && node.expand !== undefined) return [{ key, node }, ...leaves(node.values, `${key}.<${node.expand}>`)]
  return [{ key, node }]
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
