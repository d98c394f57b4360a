/**
 * String formats the body schemas use beyond JSON Schema's own (an IPv4 network, a regular
 * expression, ...): each is registered with the validator and says what is wrong with a value
 * that is not one, so the 422 message can name the value (`"include[1]" must be an IPv4 network
 * such as "10.0.0.0/8": "x"`). The OpenAPI document publishes the format's name.
 */
import { FormatRegistry } from '@sinclair/typebox'

/** What is wrong with `value` (the text after the quoted path), or undefined when it is one. */
export type FormatCheck = (value: unknown) => string | undefined

const checks = new Map<string, FormatCheck>()

/** Registers `name`; defining a name twice with another check is a programming error. */
export function defineFormat(name: string, check: FormatCheck): string {
  const known = checks.get(name)
  if (known !== undefined && known !== check) throw new Error(`format ${name} is already defined`)
  checks.set(name, check)
  FormatRegistry.Set(name, (value) => check(value) === undefined)
  return name
}

/** The problem of `value` for a defined format; undefined for an unknown format or a valid value. */
export function formatProblem(name: unknown, value: unknown): string | undefined {
  return typeof name === 'string' ? checks.get(name)?.(value) : undefined
}

/** A value as a message shows it: JSON, at most 60 characters. */
export function shown(value: unknown): string {
  return String(JSON.stringify(value)).slice(0, 60)
}

/** A regular expression JavaScript accepts (matched case-insensitively). */
export const REGEX_FORMAT = defineFormat('regex', (value) => {
  if (typeof value !== 'string') return 'must be a regular expression'
  try {
    new RegExp(value, 'i')
    return undefined
  } catch {
    return 'is not a valid regular expression'
  }
})
