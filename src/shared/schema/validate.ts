/**
 * Request bodies checked against their JSON Schema (TypeBox, compiled once), with the 422
 * messages clients parse: `"name" is required`, `"scope[0]" must be one of [read, ...]`,
 * `"x" is not allowed`. The same schema object is what the OpenAPI document publishes, so the
 * check and the document cannot drift.
 *
 * A schema may carry `x-message` (the text after the quoted path, replacing the derived one) and
 * an object schema `x-additional-message` (for its unknown keys).
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { invalidInput, type ValidationIssue } from '../errors.js'

export interface BodyValidator<T> {
  /** The JSON Schema the body is checked against (published as is). */
  readonly schema: TSchema
  /** The body, typed, or a 422 `invalidInput` naming the first problem (every problem with `all`). */
  parse(value: unknown): T
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

/** The text after the quoted path for one error. */
function describe(error: ValueError): string {
  const { schema, value } = error
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const custom = schema['x-additional-message']
    return typeof custom === 'string' ? custom : 'is not allowed'
  }
  const custom = schema['x-message']
  if (typeof custom === 'string') return custom
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required'
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
 * The problems in the order a reader checks them: unknown keys first, then each property in the
 * order the schema declares them (so `username` is reported before `password`), one per path.
 */
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

function issues(schema: TSchema, errors: Iterable<ValueError>): ValidationIssue[] {
  const order = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {})
  const rank = (e: ValueError): number => {
    if (e.type === ValueErrorType.ObjectAdditionalProperties && e.path.lastIndexOf('/') === 0) return -1
    const top = e.path.split('/')[1] ?? ''
    const i = order.indexOf(top.replace(/~1/g, '/').replace(/~0/g, '~'))
    return i === -1 ? order.length : i
  }
  const seen = new Set<string>()
  const all: Array<{ rank: number; index: number; issue: ValidationIssue }> = []
  let index = 0
  for (const raw of errors) {
    const e = nonNullBranch(raw)
    if (seen.has(e.path)) continue
    seen.add(e.path)
    const path = issuePath(e.path)
    all.push({ rank: rank(e), index: index++, issue: { message: `"${path}" ${describe(e)}`, path } })
  }
  return all.sort((a, b) => a.rank - b.rank || a.index - b.index).map((x) => x.issue)
}

/** Compiles `schema` once; `all` reports every problem (else the first, as the handlers did). */
export function bodyValidator<T extends TSchema>(schema: T, options: { all?: boolean } = {}): BodyValidator<Static<T>> {
  const compiled = TypeCompiler.Compile(schema)
  return {
    schema,
    parse(value) {
      if (compiled.Check(value)) return value
      const found = issues(schema, compiled.Errors(value))
      throw invalidInput(options.all ? found : found.slice(0, 1))
    },
  }
}
