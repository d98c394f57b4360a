/**
 * A fresh database for one benchmark run: on PostgreSQL a new database next to DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards unless `keep`; on PGlite
 * on disk in a temporary directory, as the embedded default runs.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createPgliteDb, createPostgresDb, type Db } from '../src/shared/db/index.js'

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export async function openBenchDb(engine: string, keep = false): Promise<{ db: Db; url?: string; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'netinv-bench-'))
    const db = await createPgliteDb({ dataDir: dir })
    return {
      db,
      async drop() {
        await db.close()
        await rm(dir, { recursive: true, force: true })
      },
    }
  }
  const name = `netinv_bench_${randomBytes(4).toString('hex')}`
  const url = await createDatabase(name, false)
  const db = createPostgresDb({ url, max: 4 })
  return {
    db,
    url,
    async drop() {
      await db.close()
      if (keep) return
      const c = new pg.Client({ connectionString: BASE_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/**
 * The URL of a database kept between runs (created on first use next to DATABASE_URL's), for
 * benchmarks whose data takes minutes to load: `netinv_bench_<name>`.
 */
export async function keptBenchDatabase(name: string): Promise<string> {
  return createDatabase(`netinv_bench_${name}`, true)
}

/** Creates database `name` next to DATABASE_URL's (unless `reuse` and it exists); returns its URL. */
async function createDatabase(name: string, reuse: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: BASE_URL })
  await admin.connect()
  const exists = reuse && (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount
  if (!exists) await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(BASE_URL)
  url.pathname = `/${name}`
  return url.toString()
}
