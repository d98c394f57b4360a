/**
 * Messages between the service and the worker thread that owns the embedded database, and the
 * shared state through which the service sees what the worker is running (so that it can stop a
 * statement that outlives its time limit even while the worker is busy inside it).
 */
import { countDbError } from '../metrics/db.js'

/** Statements that may wait and run for at most `timeoutMs` (counted from `submitted`). */
interface Bounded {
  timeoutMs?: number
  /** Date.now() when the service sent it. */
  submitted: number
}

export type WorkerRequest =
  | ({ op: 'query'; id: number; sql: string; params: unknown[]; tx?: number } & Bounded)
  | ({ op: 'exec'; id: number; sql: string; tx?: number } & Bounded)
  /** Opens a transaction whose id is this request's id; it holds the database until `end`. */
  | ({ op: 'begin'; id: number } & Bounded)
  | { op: 'end'; id: number; tx: number; commit: boolean }
  /** One slice of a COPY ... FROM STDIN: whole CSV lines, UTF-8. */
  | { op: 'copy'; id: number; sql: string; data: Uint8Array; tx?: number }
  /** A cursor read: the worker sends `batch` replies and waits for `next` (or `cancel`) after each. */
  | { op: 'stream'; id: number; sql: string; params: unknown[]; batchSize: number }
  | { op: 'next'; id: number }
  | { op: 'cancel'; id: number }
  | { op: 'close'; id: number }

/** How the worker came by its database: found it, unpacked the template of a new one, or ran initdb. */
export type Setup = 'existing' | 'template' | 'initdb'

export interface SerializedError {
  message: string
  fields: Record<string, string | number>
}

export type WorkerReply =
  | { id: number; ok: true; result?: unknown }
  | { id: number; ok: false; error: SerializedError }
  | { id: number; batch: Array<Record<string, unknown>> }
  | { ready: true; setup: Setup }
  | { ready: false; error: SerializedError }

/** Slots of the shared state: the running request's id (Int32) and when it started (Float64). */
export const STATE_BYTES = 16

export interface SharedState {
  running: Int32Array
  startedAt: Float64Array
}

export function sharedState(buffer: SharedArrayBuffer): SharedState {
  return { running: new Int32Array(buffer, 0, 1), startedAt: new Float64Array(buffer, 8, 1) }
}

/** SQLSTATE of a statement stopped by its time limit (PostgreSQL's query_canceled). */
export const QUERY_CANCELED = '57014'

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} }
  const fields: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value
  }
  return { message: err.message, fields }
}

export function deserializeError(e: SerializedError): Error {
  return Object.assign(new Error(e.message), e.fields)
}

/** A statement stopped (or never started) at its time limit; counted in `netinv_db_errors_total`. */
export function timeoutError(): Error {
  const err = Object.assign(new Error('canceling statement due to statement timeout'), { code: QUERY_CANCELED })
  countDbError('statement_timeout', err)
  return err
}
