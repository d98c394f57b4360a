/**
 * The request bodies of inventory endpoints that are checked against a JSON Schema (TypeBox):
 * the route checks the body with it and the OpenAPI document publishes the same object. Table
 * requests are described from the catalog instead (src/gateway/openapi/tables.ts); endpoints
 * whose bodies are still checked by hand-written code have no entry yet (the OpenAPI test lists
 * them).
 */
import { Type } from '@sinclair/typebox'
import type { RequestBodies } from '../../shared/schema/index.js'

/** Bounds of a snapshot's name and note. */
export const TEXT_LIMITS = { name: 255, note: 4000 } as const

const text = (max: number, description: string) =>
  Type.Union([Type.String({ maxLength: max }), Type.Null()], { description, 'x-message': `must be a string of at most ${max} characters, or null` })

export const SnapshotPatch = Type.Object(
  {
    name: Type.Optional(text(TEXT_LIMITS.name, 'Name of the snapshot; null removes it.')),
    note: Type.Optional(text(TEXT_LIMITS.note, 'Note on the snapshot; null removes it.')),
  },
  { additionalProperties: false, 'x-additional-message': 'is not allowed; allowed keys are [name, note]' },
)

/** By `METHOD path` of the manifest. */
export const INVENTORY_BODIES: RequestBodies = {
  'PATCH snapshots/:id': { schema: SnapshotPatch },
  // Not JSON: the file is read line by line, each line checked as it arrives (snapshots/reader.ts).
  'POST snapshots/upload': {
    contentType: 'application/x-ndjson',
    schema: Type.String({ description: 'A netinv-snapshot file: one JSON object per line, a header line first (docs/snapshot-format.md).' }),
  },
}
