/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it) or any part of the document, as plain data. */
export type JsonSchema = Record<string, unknown>
