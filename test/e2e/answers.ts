/**
 * The shape of what the API answers to a table request (`POST /api/tables/<path>`, the same under
 * `/api/v1/` and `/api/v<major>.<minor>/`; docs/tables.md, the OpenAPI document's `TableMeta`):
 * `{data, _meta}`, the page's rows in `data` and in `_meta` the `limit` that applied (the request's
 * `pagination.limit` or the default one; `null` when none did), its `start`, `count` (every
 * matching row, not only this page's), `size` (the rows in this page) and `truncated: true` when
 * the default limit left matching rows out. The tests read answers through these instead of
 * declaring them each.
 */

/**
 * A row of a table answer: its columns by name (a coloured column's value is `{data, severity}`).
 * The tests use it as well for any other JSON object, e.g. a snapshot of `GET /api/snapshots`.
 */
export type Row = Record<string, unknown>

/** `_meta` of a table answer. */
export interface TableMeta {
  /** The request's `pagination.limit` or the default one; `null` when no limit applied. */
  limit: number | null
  start: number
  /** Matching rows in all. */
  count: number
  /** Rows in this page (`data.length`). */
  size: number
  /** Present when the request named no limit and the default one left matching rows out. */
  truncated?: true
}

/** A table answer: a page of rows (`R`, a narrower row of one table, or any row) and `_meta`. */
export interface Page<R = Row> {
  data: R[]
  _meta: TableMeta
}
