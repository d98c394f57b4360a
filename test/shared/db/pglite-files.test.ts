/**
 * The embedded database's files are the service's alone: no file or directory under its data
 * directory is readable, writable or searchable by group or others, whatever PGlite asks for, and
 * a data directory left open by an earlier version is closed at the next start.
 */
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { createPgliteDb } from '../../../src/shared/db/pglite.js'

/** Every path under `dir` (itself included) whose mode lets group or others in, with its mode. */
function openToOthers(dir: string): string[] {
  const out: string[] = []
  const visit = (path: string): void => {
    const mode = statSync(path).mode & 0o777
    if ((mode & 0o077) !== 0) out.push(`${path} ${mode.toString(8)}`)
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) visit(join(path, name))
  }
  visit(dir)
  return out
}

function count(dir: string): number {
  let n = 1
  if (statSync(dir).isDirectory()) for (const name of readdirSync(dir)) n += count(join(dir, name))
  return n
}

t.test('every file and directory of the embedded database is owner-only (0600/0700)', async (t) => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'netinv-pglite-files-')), 'pglite')
  const db = await createPgliteDb({ dataDir })
  await db.query('CREATE TABLE t (a int)', [])
  await db.query('INSERT INTO t SELECT generate_series(1, 1000)', [])
  await db.query('CHECKPOINT', [])
  await db.close()
  t.ok(count(dataDir) > 900, 'the whole cluster was written')
  t.same(openToOthers(dataDir), [], 'nothing group- or world-accessible, the WAL included')

  // A data directory an earlier version left open (0666 files, 0755 directories) is closed.
  const loosen = (path: string): void => {
    const dir = statSync(path).isDirectory()
    chmodSync(path, dir ? 0o755 : 0o666)
    if (dir) for (const name of readdirSync(path)) loosen(join(path, name))
  }
  loosen(dataDir)
  const again = await createPgliteDb({ dataDir })
  t.same((await again.query<{ n: number }>('SELECT count(*)::int AS n FROM t', [])).rows, [{ n: 1000 }], 'nothing lost')
  await again.close()
  t.same(openToOthers(dataDir), [], 'closed at the next start')
})
