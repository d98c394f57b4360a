/**
 * Test databases. Each call gets a database of its own, so test files can run in parallel:
 * on PostgreSQL a fresh database created next to DATABASE_URL's and dropped at teardown; on
 * PGlite an in-memory instance. A PostgreSQL test database is named after the test process
 * (`netinv_t_<pid>_<hex>`), so that its watchdog drops it when the process dies without
 * tearing down (owned.ts).
 */
import pg from 'pg'
import { createPgliteDb, createPostgresDb, type Db } from '../../src/shared/db/index.js'
import { databaseName } from './owned.js'
import { DATABASE_URL } from './urls.js'

export { DATABASE_URL, REDIS_URL } from './urls.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A fresh PostgreSQL database; returns its Db and URL. */
export async function freshPostgres(t: Teardown, poolSize = 5): Promise<{ db: Db; url: string }> {
  const name = databaseName()
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  const db = createPostgresDb({ url: url.toString(), max: poolSize })
  t.teardown(async () => {
    await db.close()
    const c = new pg.Client({ connectionString: DATABASE_URL })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await c.end()
  })
  return { db, url: url.toString() }
}

/** A fresh in-memory PGlite. */
export async function freshPglite(t: Teardown): Promise<Db> {
  const db = await createPgliteDb()
  t.teardown(() => db.close())
  return db
}

/** Both engines, for tests whose behaviour could differ between them. */
export const ENGINES = ['postgres', 'pglite'] as const
export async function freshDb(t: Teardown, engine: (typeof ENGINES)[number]): Promise<Db> {
  return engine === 'postgres' ? (await freshPostgres(t)).db : freshPglite(t)
}
