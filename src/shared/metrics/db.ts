/**
 * Database metrics of the process (both services use the database): the PostgreSQL pools'
 * connections in use and idle, requests waiting for a connection, checkouts that timed out
 * (answered 503 API_DATABASE_BUSY), times the database could not be reached (503
 * API_DATABASE_UNAVAILABLE), and statements stopped at their time limit (SQLSTATE 57014).
 * Counted where the database layer classifies its errors (errors.ts), so every caller counts.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import { withProcessRegistry } from './runtime.js'

/** What a pool says of itself (pg.Pool's counts). */
export interface PoolFigures {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
  readonly options: { max?: number }
}

const pools = new Set<PoolFigures>()

/** Counts kept until the process's registry exists (a failure before any scrape still counts). */
const failures = new Counter({
  name: 'netinv_db_errors_total',
  help: 'Database failures by kind: pool_timeout (no free connection in time: 503 API_DATABASE_BUSY), unavailable (unreachable or restarting: 503 API_DATABASE_UNAVAILABLE), statement_timeout (a statement stopped at its time limit), disk_full.',
  labelNames: ['kind'],
  registers: [],
})
for (const kind of ['pool_timeout', 'unavailable', 'statement_timeout', 'disk_full']) failures.inc({ kind }, 0)

withProcessRegistry((registry: Registry) => {
  const registers = [registry]
  registry.registerMetric(failures)
  new Gauge({
    name: 'netinv_db_pool_connections',
    help: 'PostgreSQL connections of the process by state (in_use: checked out; idle; max: the pools\' limit).',
    labelNames: ['state'],
    registers,
    collect() {
      let inUse = 0
      let idle = 0
      let max = 0
      for (const p of pools) {
        inUse += p.totalCount - p.idleCount
        idle += p.idleCount
        max += p.options.max ?? 10
      }
      this.set({ state: 'in_use' }, inUse)
      this.set({ state: 'idle' }, idle)
      this.set({ state: 'max' }, max)
    },
  })
  new Gauge({
    name: 'netinv_db_pool_waiting',
    help: 'Requests waiting for a free PostgreSQL connection.',
    registers,
    collect() {
      let n = 0
      for (const p of pools) n += p.waitingCount
      this.set(n)
    },
  })
})

export type DbErrorKind = 'pool_timeout' | 'unavailable' | 'statement_timeout' | 'disk_full'

/** Errors already counted: the same error passes through several layers of the adapters. */
const counted = new WeakSet<object>()

/** Counts a failure once, however many layers see the same error (`errors`: it and what it became). */
export function countDbError(kind: DbErrorKind, ...errors: object[]): void {
  if (errors.some((e) => counted.has(e))) return
  for (const e of errors) counted.add(e)
  failures.inc({ kind })
}

export function dbErrorCounted(err: object): boolean {
  return counted.has(err)
}

/** Follows a pool's figures until the returned function is called (its close). */
export function watchPool(pool: PoolFigures): () => void {
  pools.add(pool)
  return () => pools.delete(pool)
}
