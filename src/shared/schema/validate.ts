/**
 * Request bodies checked against their JSON Schema (TypeBox, compiled once), with the 422
 * messages clients parse: `"name" is required`, `"scope[0]" must be one of [read, ...]`,
 * `"x" is not allowed`. The same schema object is what the OpenAPI document publishes, so the
 * check and the document cannot drift.
 *
 * A schema may carry `x-message` (the text after the quoted path, replacing the derived one),
 * `x-messages` (the same per failed keyword: `{"format": "is not a valid regular expression"}`,
 * before `x-message`) and an object schema `x-additional-message` (for its unknown keys). A
 * string of a format defined in formats.ts that is not one (or not a string) is described by
 * the format, unless the schema says otherwise.
 *
 * Checks a schema cannot express (one field against another, the database) run after it, as
 * code: `problems` gives the schema's, the code adds its own to the list, and `assert` answers
 * them all in one 422, in the order of the schema.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { ownValue } from '../own.js'
import { invalidInput, type ValidationIssue } from '../errors.js'
import { formatProblem } from './formats.js'

export interface BodyValidator<T> {
  /** The JSON Schema the body is checked against (published as is). */
  readonly schema: TSchema
  /** The body, typed, or a 422 `invalidInput` naming the first problem (every problem with `all`). */
  parse(value: unknown): T
  /** Every problem of `value` against the schema, in report order; none when it conforms. */
  problems(value: unknown): ValidationIssue[]
  /**
   * Throws the 422 of `issues` (the schema's and those of the checks after it) in report order,
   * one per path (the first found), the first only unless `all`; returns when there are none.
   */
  assert(issues: readonly ValidationIssue[]): void
}

/** JSON pointer "/scope/0/name" → "scope[0].name"; the root is "value". */
export function issuePath(pointer: string): string {
  if (pointer === '') return 'value'
  let out = ''
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`
  }
  return out
}

function list(values: readonly unknown[]): string {
  return `[${values.map(String).join(', ')}]`
}

function constants(schema: TSchema): unknown[] | undefined {
  const options = schema.anyOf as TSchema[] | undefined
  if (!Array.isArray(options) || !options.every((o) => 'const' in o)) return undefined
  return options.map((o) => o.const as unknown)
}

/** The JSON Schema keyword an error is about (the key of `x-messages`). */
const KEYWORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.String]: 'type',
  [ValueErrorType.Boolean]: 'type',
  [ValueErrorType.Integer]: 'type',
  [ValueErrorType.Number]: 'type',
  [ValueErrorType.Array]: 'type',
  [ValueErrorType.Object]: 'type',
  [ValueErrorType.Null]: 'type',
  [ValueErrorType.StringMinLength]: 'minLength',
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.StringPattern]: 'pattern',
  [ValueErrorType.StringFormat]: 'format',
  [ValueErrorType.IntegerMinimum]: 'minimum',
  [ValueErrorType.NumberMinimum]: 'minimum',
  [ValueErrorType.IntegerMaximum]: 'maximum',
  [ValueErrorType.NumberMaximum]: 'maximum',
  [ValueErrorType.ArrayMinItems]: 'minItems',
  [ValueErrorType.ArrayMaxItems]: 'maxItems',
  [ValueErrorType.ArrayUniqueItems]: 'uniqueItems',
  [ValueErrorType.ObjectMinProperties]: 'minProperties',
  [ValueErrorType.ObjectMaxProperties]: 'maxProperties',
  [ValueErrorType.Union]: 'anyOf',
  [ValueErrorType.Literal]: 'const',
}

/** The text after the quoted path for one error. */
function describe(error: ValueError): string {
  const { schema, value } = error
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const custom = schema['x-additional-message']
    return typeof custom === 'string' ? custom : 'is not allowed'
  }
  const keyword = KEYWORDS[error.type]
  const perKeyword = (schema['x-messages'] as Record<string, unknown> | undefined)?.[keyword ?? '']
  if (typeof perKeyword === 'string') return perKeyword
  const custom = schema['x-message']
  if (typeof custom === 'string') return custom
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required'
  if (error.type === ValueErrorType.StringFormat || (error.type === ValueErrorType.String && value !== null && value !== undefined)) {
    const problem = formatProblem(schema.format, value)
    if (problem !== undefined) return problem
  }
  switch (error.type) {
    case ValueErrorType.String:
      return value === null || value === undefined ? 'is required' : 'must be a string'
    case ValueErrorType.StringMinLength:
      return value === '' ? 'is not allowed to be empty' : `length must be at least ${String(schema.minLength)} characters long`
    case ValueErrorType.StringMaxLength:
      return `length must be less than or equal to ${String(schema.maxLength)} characters long`
    case ValueErrorType.Boolean:
      return 'must be a boolean'
    case ValueErrorType.Integer:
      return 'must be an integer'
    case ValueErrorType.Number:
      return 'must be a number'
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be greater than or equal to ${String(schema.minimum)}`
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be less than or equal to ${String(schema.maximum)}`
    case ValueErrorType.Array:
      return 'must be an array'
    case ValueErrorType.ArrayMinItems:
      return `must contain at least ${String(schema.minItems)} items`
    case ValueErrorType.ArrayMaxItems:
      return `must contain at most ${String(schema.maxItems)} items`
    case ValueErrorType.ArrayUniqueItems:
      return 'must not contain duplicate items'
    case ValueErrorType.StringPattern:
      return `must match the pattern ${String(schema.pattern)}`
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${String(schema.minProperties)} keys`
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${String(schema.maxProperties)} keys`
    case ValueErrorType.Object:
      return 'must be of type object'
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`
    case ValueErrorType.Union: {
      const values = constants(schema)
      return values ? `must be one of ${list(values)}` : 'does not match any of the allowed types'
    }
    default:
      return error.message
  }
}

/**
 * A value of the wrong kind for "a string or null" (and the like) is described by the non-null
 * branch: `"email" is not allowed to be empty`, not "does not match any of the allowed types".
 */
function nonNullBranch(error: ValueError): ValueError {
  const options = error.schema.anyOf as TSchema[] | undefined
  if (error.type !== ValueErrorType.Union || error.value === null || error.schema['x-message'] !== undefined || !Array.isArray(options)) return error
  const branches = options.filter((o) => o.type !== 'null')
  if (branches.length !== 1 || branches.length === options.length) return error
  const first = Value.Errors(branches[0]!, error.value).First()
  return first ? { ...first, path: error.path + first.path } : error
}

/** "siteRules[1].hostname" → ["siteRules", 1, "hostname"]. */
function segments(path: string): Array<string | number> {
  return [...path.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[0]))
}

/** The schema of a key or an index inside `schema` (through "X or null"), if it declares one. */
function childSchema(schema: TSchema | undefined, segment: string | number): TSchema | undefined {
  if (schema === undefined) return undefined
  const options = (schema.anyOf as TSchema[] | undefined) ?? [schema]
  for (const option of options) {
    if (typeof segment === 'number' && option.items !== undefined) return option.items as TSchema
    const property = typeof segment === 'string' ? ownValue(option.properties as Record<string, TSchema> | undefined, segment) : undefined
    if (property !== undefined) return property
  }
  return undefined
}

/**
 * Where a problem comes in the report: level by level, an index in its order and a key in the
 * order the schema declares it (so `username` is reported before `password`); an undeclared key
 * of the body itself first (`"color" is not allowed` leads), a deeper one after its siblings. A
 * problem without a path (of the request as a whole, found by code after the schema) comes last.
 */
function reportKey(schema: TSchema, path: string): number[] {
  const out: number[] = []
  let current: TSchema | undefined = schema
  segments(path).forEach((segment, depth) => {
    if (typeof segment === 'number') out.push(segment)
    else {
      const order = Object.keys((current?.anyOf as TSchema[] | undefined)?.find((o) => o.properties)?.properties ?? current?.properties ?? {})
      const i = order.indexOf(segment)
      out.push(i !== -1 ? i : depth === 0 ? -1 : Number.MAX_SAFE_INTEGER)
    }
    current = childSchema(current, segment)
  })
  return out
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** One problem per path (the first found), in report order. */
function ordered(schema: TSchema, issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>()
  const kept: Array<{ key: number[]; index: number; issue: ValidationIssue }> = []
  issues.forEach((issue, index) => {
    const path = issue.path ?? ''
    if (issue.path !== undefined && seen.has(path)) return
    seen.add(path)
    // "value" names the body itself, unless the body declares a key of that name
    const root = path === 'value' && childSchema(schema, 'value') === undefined
    kept.push({ key: issue.path === undefined ? [Number.MAX_SAFE_INTEGER] : reportKey(schema, root ? '' : path), index, issue })
  })
  return kept.sort((a, b) => compareKeys(a.key, b.key) || a.index - b.index).map((x) => x.issue)
}

function issues(schema: TSchema, errors: Iterable<ValueError>): ValidationIssue[] {
  const seen = new Set<string>()
  const all: ValidationIssue[] = []
  for (const raw of errors) {
    const e = nonNullBranch(raw)
    if (seen.has(e.path)) continue
    seen.add(e.path)
    const path = issuePath(e.path)
    all.push({ message: `"${path}" ${describe(e)}`, path })
  }
  return ordered(schema, all)
}

/** Compiles `schema` once; `all` reports every problem (else the first, as the handlers did). */
export function bodyValidator<T extends TSchema>(schema: T, options: { all?: boolean } = {}): BodyValidator<Static<T>> {
  const compiled = TypeCompiler.Compile(schema)
  const fail = (found: ValidationIssue[]): never => {
    throw invalidInput(options.all ? found : found.slice(0, 1))
  }
  return {
    schema,
    parse(value) {
      if (compiled.Check(value)) return value
      return fail(issues(schema, compiled.Errors(value)))
    },
    problems(value) {
      return compiled.Check(value) ? [] : issues(schema, compiled.Errors(value))
    },
    assert(found) {
      if (found.length > 0) fail(ordered(schema, found))
    },
  }
}
