/** Opens the database the environment asks for: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
import { join } from 'node:path'
import type { Logger } from 'pino'
import { createPostgresDb } from './postgres.js'
import { createPgliteDb } from './pglite.js'
import type { Db } from './types.js'

export type { Db, Queryable, QueryResult } from './types.js'
export { migrate, type Migration } from './migrate.js'
export { queryWithSettings, type StatementSettings } from './settings.js'
export { Deadline, queryBefore } from './deadline.js'
export { DatabaseFullError, DatabaseUnavailableError, asFull, asUnavailable, isDiskFull, dataErrorReason, rethrowDbError, sqlState } from './errors.js'
export { createPostgresDb, createPgliteDb }

export async function openDb(options: { databaseUrl?: string | undefined; dataDir: string; poolSize?: number; log?: Logger }): Promise<Db> {
  if (options.databaseUrl) {
    return createPostgresDb({ url: options.databaseUrl, ...(options.poolSize ? { max: options.poolSize } : {}) })
  }
  return createPgliteDb({ dataDir: join(options.dataDir, 'pglite'), shownDir: options.dataDir, ...(options.log ? { log: options.log } : {}) })
}
