/**
 * What an endpoint takes as its request body, by `METHOD path` (the manifest's path pattern):
 * the JSON Schema its handler checks the body with, published as is in the OpenAPI document.
 */
import type { TSchema } from '@sinclair/typebox'

export interface RequestBody {
  schema: TSchema
  /** Media type; application/json unless set. */
  contentType?: string
  /** Other media types the same body may come in, with their schemas (e.g. a form with the file). */
  alsoAccepts?: Readonly<Record<string, TSchema>>
  /** Whether a request may come without a body (then the handler takes `{}`). */
  optional?: boolean
}

export type RequestBodies = Readonly<Record<string, RequestBody>>
