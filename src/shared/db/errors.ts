/**
 * Database failures as the product reports them. A database that cannot be reached, is
 * restarting, or has no free connection is not a bug of the request: it is a 503 with
 * `Retry-After` (the adapters turn such errors into `DatabaseUnavailableError` where they happen).
 * Errors caused by a request's values are described in our words, never the database's.
 */
import { ApiError } from '../errors.js'
import { countDbError, dbErrorCounted } from '../metrics/db.js'

/** Seconds a client should wait before retrying when the database is down or restarting. */
export const UNAVAILABLE_RETRY_AFTER_S = 5
/** Seconds a client should wait before retrying when every connection is busy. */
export const BUSY_RETRY_AFTER_S = 2

export class DatabaseUnavailableError extends ApiError {
  constructor(kind: 'unavailable' | 'busy', options: { cause?: unknown } = {}) {
    const busy = kind === 'busy'
    super(busy ? 'API_DATABASE_BUSY' : 'API_DATABASE_UNAVAILABLE', undefined, {
      headers: { 'retry-after': String(busy ? BUSY_RETRY_AFTER_S : UNAVAILABLE_RETRY_AFTER_S) },
    })
    if (options.cause !== undefined) this.cause = options.cause
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'])
/** SQLSTATEs of a server that is shutting down, starting up or out of connection slots. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300'])
/** What node-postgres says when a connection ends under it, or the pool cannot hand one out. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error/,
  /^Client was closed and is not queryable/,
  /^Connection closed/,
]
const POOL_TIMEOUT = /^timeout exceeded when trying to connect/

/** The SQLSTATE of a database error, when it has one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
}

/**
 * The 503 an error of the database layer stands for, or undefined when it is not an
 * unavailability (a bad statement, a constraint, a timeout of the statement itself).
 */
export function asUnavailable(err: unknown): DatabaseUnavailableError | undefined {
  if (err instanceof DatabaseUnavailableError) return err
  if (!(err instanceof Error)) return undefined
  if (POOL_TIMEOUT.test(err.message)) return new DatabaseUnavailableError('busy', { cause: err })
  const code = (err as { code?: unknown }).code
  const state = sqlState(err)
  const down =
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    (state !== undefined && (state.startsWith('08') || UNAVAILABLE_STATES.has(state))) ||
    DRIVER_MESSAGES.some((re) => re.test(err.message))
  return down ? new DatabaseUnavailableError('unavailable', { cause: err }) : undefined
}

/**
 * A database whose disk is full: 507 with the place in the operator's words ("the data directory
 * /var/lib/netinv", "the database server's disk"), never the database's own (a file under
 * pg_wal or base/ of its internal layout); the original is the cause, for the log.
 */
export class DatabaseFullError extends ApiError {
  constructor(where: string, options: { cause?: unknown } = {}) {
    super('API_STORAGE_FULL', `${where.charAt(0).toUpperCase()}${where.slice(1)} is full; free space on its disk, then retry`)
    if (options.cause !== undefined) this.cause = options.cause
  }
}

/** SQLSTATE disk_full, which PostgreSQL and PGlite give to a write that found no space (ENOSPC). */
const DISK_FULL = '53100'
const NO_SPACE = /No space left on device/

/** Whether `err` says the database's disk is full: SQLSTATE 53100, or a file system's ENOSPC. */
export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  return sqlState(err) === DISK_FULL || (err as { code?: unknown }).code === 'ENOSPC' || NO_SPACE.test(err.message)
}

/** The 507 of a full disk (`where`: the place as the operator knows it), or undefined. */
export function asFull(err: unknown, where: string): DatabaseFullError | undefined {
  if (err instanceof DatabaseFullError) return err
  return isDiskFull(err) ? new DatabaseFullError(where, { cause: err }) : undefined
}

/** Where a PostgreSQL server's full disk is, for its users: not on this machine. */
export const SERVER_DISK = "the database server's disk"

/** Rethrows `err`, as a 503 when it is an unavailability of the database, as a 507 when its disk is full. */
export function rethrowDbError(err: unknown): never {
  const mapped = asUnavailable(err) ?? asFull(err, SERVER_DISK)
  count(err, mapped)
  throw mapped ?? err
}

function count(err: unknown, mapped: ApiError | undefined): void {
  if (err === null || typeof err !== 'object' || err instanceof ApiError || dbErrorCounted(err)) return
  if (mapped instanceof DatabaseUnavailableError) countDbError(mapped.code === 'API_DATABASE_BUSY' ? 'pool_timeout' : 'unavailable', err, mapped)
  else if (mapped instanceof DatabaseFullError) countDbError('disk_full', err, mapped)
  else if (sqlState(err) === '57014') countDbError('statement_timeout', err)
}

const DATA_REASONS: Record<string, string> = {
  '22001': 'a text is longer than its column allows',
  '22003': 'a number is out of range',
  '22007': 'a date or time is not valid',
  '22008': 'a date or time is out of range',
  '22021': 'a text holds a character that cannot be stored (such as U+0000)',
  '22P02': 'a value does not have the type of its column',
  '22P04': 'a line does not have the expected fields',
  '22P05': 'a text holds a character that cannot be stored',
  '2201B': 'a regular expression is not valid (for example a range such as [z-a] or an unknown character class)',
  '23502': 'a required value is missing',
  '23505': 'a value that must be unique appears twice',
  '23514': 'a value is outside what its column allows',
}

/**
 * Our words for a database error caused by the values of a request (SQLSTATE classes 22 and 23),
 * or undefined for any other error.
 */
export function dataErrorReason(err: unknown): string | undefined {
  const state = sqlState(err)
  if (state === undefined) return undefined
  if (DATA_REASONS[state]) return DATA_REASONS[state]
  if (state.startsWith('22')) return 'a value is not valid'
  if (state.startsWith('23')) return 'a value breaks a rule of its table'
  return undefined
}
