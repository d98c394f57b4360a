/**
 * Reading and validating the JSON bodies of the gateway's own endpoints (422 with `errors`),
 * against the schemas of schemas.ts: the same objects the OpenAPI document publishes.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { readJsonObject } from '../../shared/http/index.js'
import { SCOPES, type Scope } from '../../shared/manifest.js'
import { bodyValidator, type BodyValidator } from '../../shared/schema/index.js'
import type { RequestContext } from '../context.js'
import { GATEWAY_BODIES } from './schemas.js'

export type Body = Record<string, unknown>

export function readBodyObject(ctx: RequestContext, limit: number): Promise<Body> {
  return readJsonObject(ctx.req, limit)
}

/** The validator of an endpoint's body schema in GATEWAY_BODIES (`METHOD path`). */
export function validatorOf<T extends TSchema>(key: string, schema: T): BodyValidator<Static<T>> {
  if (GATEWAY_BODIES[key]?.schema !== schema) throw new Error(`${key}: its body schema is not the one GATEWAY_BODIES publishes`)
  return bodyValidator(schema)
}

/** Reads the body (`{}` when empty) and checks it: typed, or a 422 naming the first problem. */
export async function parseBody<T>(ctx: RequestContext, limit: number, validator: BodyValidator<T>): Promise<T> {
  return validator.parse(await readBodyObject(ctx, limit))
}

/** Scopes in their canonical order. */
export function canonicalScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s))
}
