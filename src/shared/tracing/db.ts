/**
 * A span per SQL statement, around the project's own Db interface (so PostgreSQL and the
 * embedded PGlite are traced alike, with no patching of the drivers). The span is a child of the
 * span active where the statement was issued (a request, a discovery job); statements issued
 * outside any span (housekeeping timers) are not traced.
 */
import type { Db, Queryable } from '../db/types.js'
import type { Span, Tracing } from './index.js'

/** Longest statement text kept on a span. */
const MAX_SQL = 2000

function statementSpan(t: Tracing, db: Db, operation: string, sql: string): Span {
  const span = t.child(`db ${operation}`, 'client')
  span.setAttribute('db.system', db.kind === 'postgres' ? 'postgresql' : 'pglite')
  span.setAttribute('db.operation.name', operation)
  span.setAttribute('db.query.text', sql.length > MAX_SQL ? `${sql.slice(0, MAX_SQL)}…` : sql)
  return span
}

/** Runs `work` under a statement span, ending it (with the error, if any) when it settles. */
async function traced<T>(t: Tracing, db: Db, operation: string, sql: string, work: () => Promise<T>): Promise<T> {
  if (!t.inSpan()) return work()
  const span = statementSpan(t, db, operation, sql)
  try {
    const result = await t.within(span, work)
    const rows = (result as { rowCount?: unknown } | undefined)?.rowCount
    if (typeof rows === 'number') span.setAttribute('db.response.returned_rows', rows)
    return result
  } catch (err) {
    span.setStatus({ code: 2, message: err instanceof Error ? err.message : String(err) })
    throw err
  } finally {
    span.end()
  }
}

/** The transaction's queryable, traced; what else the driver keeps on it (its connection) stays reachable. */
function tracedQueryable(t: Tracing, db: Db, q: Queryable): Queryable {
  const wrapped = Object.create(q) as Queryable
  wrapped.query = (sql, params) => traced(t, db, 'query', sql, () => q.query(sql, params))
  return wrapped
}

export function tracedDb(db: Db, t: Tracing): Db {
  return {
    kind: db.kind,
    query: (sql, params) => traced(t, db, 'query', sql, () => db.query(sql, params)),
    exec: (sql) => traced(t, db, 'exec', sql, () => db.exec(sql)),
    transaction: (fn) => db.transaction((tx) => fn(tracedQueryable(t, db, tx))),
    copyFrom: (sql, source, tx) => traced(t, db, 'copy', sql, () => db.copyFrom(sql, source, tx)),
    stream: (sql, params, batchSize, onBatch, settings) => traced(t, db, 'stream', sql, () => db.stream(sql, params, batchSize, onBatch, settings)),
    withStatementTimeout: (timeoutMs) => tracedDb(db.withStatementTimeout(timeoutMs), t),
    ping: () => db.ping(),
    close: () => db.close(),
  }
}
