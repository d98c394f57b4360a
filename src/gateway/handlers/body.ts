/** Reading and validating the JSON bodies of the gateway's own endpoints (422 with `errors`). */
import { invalidInput } from '../../shared/errors.js'
import { readJsonObject } from '../../shared/http/index.js'
import { SCOPES, type Scope } from '../../shared/manifest.js'
import type { RequestContext } from '../context.js'

export type Body = Record<string, unknown>

export function readBodyObject(ctx: RequestContext, limit: number): Promise<Body> {
  return readJsonObject(ctx.req, limit)
}

export function requiredString(body: Body, name: string, max = 1024): string {
  const v = body[name]
  if (v === undefined || v === null) throw invalidInput(`"${name}" is required`)
  if (typeof v !== 'string') throw invalidInput(`"${name}" must be a string`)
  if (v.length === 0) throw invalidInput(`"${name}" is not allowed to be empty`)
  if (v.length > max) throw invalidInput(`"${name}" length must be less than or equal to ${max} characters long`)
  return v
}

export function optionalString(body: Body, name: string, max = 1024): string | undefined {
  return body[name] === undefined ? undefined : requiredString(body, name, max)
}

export function optionalNullableString(body: Body, name: string, max = 1024): string | null | undefined {
  return body[name] === null ? null : optionalString(body, name, max)
}

export function optionalBoolean(body: Body, name: string): boolean | undefined {
  const v = body[name]
  if (v === undefined) return undefined
  if (typeof v !== 'boolean') throw invalidInput(`"${name}" must be a boolean`)
  return v
}

export function scopeList(value: unknown, name: string): Scope[] {
  if (!Array.isArray(value)) throw invalidInput(`"${name}" must be an array`)
  value.forEach((s, i) => {
    if (!(SCOPES as readonly unknown[]).includes(s)) throw invalidInput(`"${name}[${i}]" must be one of [${SCOPES.join(', ')}]`)
  })
  return SCOPES.filter((s) => value.includes(s))
}

export function optionalScopes(body: Body, name: string): Scope[] | undefined {
  return body[name] === undefined ? undefined : scopeList(body[name], name)
}

/** A timestamp in ms since the epoch, or null for none. */
export function optionalTimestamp(body: Body, name: string): number | null | undefined {
  const v = body[name]
  if (v === undefined || v === null) return v
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidInput(`"${name}" must be a timestamp in milliseconds or null`)
  return v
}

/** Usernames: 1–64 characters; the identity store normalises and checks them (identity/names.ts). */
export function username(body: Body): string {
  return requiredString(body, 'username', 64)
}

export function password(body: Body, name = 'password'): string {
  const p = requiredString(body, name, 1024)
  if (p.length < 8) throw invalidInput(`"${name}" length must be at least 8 characters long`)
  return p
}
