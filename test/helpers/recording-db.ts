/** A Db that records what is sent through it (statements, transactions, timeouts), for tests that count round trips or work. */
import type { Db } from '../../src/shared/db/index.js'

export interface Recorder {
  statements: string[]
  transactions: number
  timeouts: number[]
  /** Statements run inside transactions, with their parameters, one list per transaction. */
  inTransactions?: Array<Array<{ sql: string; params: readonly unknown[] }>>
  /** Settings passed with each cursor. */
  streamSettings?: unknown[]
  /** Transactions open now, and the most open at once since `most` was last set. */
  open?: { now: number; most: number }
}

/** A Db that records what is sent through it and through its bounded views. */
export function recording(db: Db, log: Recorder): Db {
  return {
    kind: db.kind,
    query: (sql, params) => {
      log.statements.push(sql)
      return db.query(sql, params)
    },
    exec: (sql) => {
      log.statements.push(sql)
      return db.exec(sql)
    },
    transaction: (fn) => {
      log.transactions++
      const statements: Array<{ sql: string; params: readonly unknown[] }> = []
      log.inTransactions?.push(statements)
      const open = log.open
      return db.transaction(async (tx) => {
        if (open) open.most = Math.max(open.most, ++open.now)
        try {
          return await fn({
            query: (sql, params) => {
              statements.push({ sql, params: params ?? [] })
              return tx.query(sql, params)
            },
          })
        } finally {
          if (open) open.now--
        }
      })
    },
    copyFrom: (sql, source, tx) => db.copyFrom(sql, source, tx),
    stream: (sql, params, size, onBatch, settings) => {
      log.streamSettings?.push(settings)
      return db.stream(sql, params, size, onBatch, settings)
    },
    withStatementTimeout: (ms) => {
      log.timeouts.push(ms)
      return recording(db.withStatementTimeout(ms), log)
    },
    ping: () => db.ping(),
    close: () => db.close(),
  }
}
