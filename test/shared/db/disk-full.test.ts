/**
 * A full disk under the database is said in the operator's words: "the data directory <DATA_DIR>
 * is full" (embedded) or "the database server's disk is full" (PostgreSQL), a 507; the
 * database's own words, which name files of its internal layout, go to the log only. The embedded
 * case runs on a real full disk: a small tmpfs mounted for the test (root only), unmounted in
 * teardown, and any left over by a test run that crashed is unmounted first.
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { DatabaseFullError, asFull, openDb, rethrowDbError } from '../../../src/shared/db/index.js'
import { toErrorResponse } from '../../../src/shared/errors.js'
import { createLogger, silentLogger } from '../../../src/shared/log.js'
import { startApp } from '../../inventory/app.js'

const PREFIX = 'netinv-disk-full-'

t.test('the errors a full disk gives are told apart and said without internal paths', async (t) => {
  // What PGlite answered on a full tmpfs (the worker hands its fields over as they are).
  const pglite = Object.assign(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'), {
    name: 'error', severity: 'PANIC', code: '53100', file: 'xlog.c', line: '3294', routine: 'XLogFileInitInternal',
  })
  // What PostgreSQL answers when a table cannot grow (node-postgres's DatabaseError fields).
  const postgres = Object.assign(new Error('could not extend file "base/16384/16402": No space left on device'), {
    name: 'error', severity: 'ERROR', code: '53100', hint: 'Check free disk space.', file: 'md.c', routine: 'mdextend',
  })
  // A write of the process itself (node's fs).
  const node = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' })

  const embedded = asFull(pglite, 'the data directory /var/lib/netinv')
  t.type(embedded, DatabaseFullError)
  t.equal(embedded?.message, 'The data directory /var/lib/netinv is full; free space on its disk, then retry')
  t.equal(embedded?.cause, pglite, 'the detail stays with it, for the log')
  t.type(asFull(node, 'the data directory /d'), DatabaseFullError)
  t.throws(() => rethrowDbError(postgres), { code: 'API_STORAGE_FULL', message: "The database server's disk is full; free space on its disk, then retry" })
  t.match(toErrorResponse(embedded), { status: 507, body: { code: 'API_STORAGE_FULL' } })
  for (const other of [Object.assign(new Error('duplicate key'), { code: '23505' }), new Error('could not open file "base/1/2": Permission denied')]) {
    t.equal(asFull(other, 'the data directory /d'), undefined, `not a full disk: ${other.message}`)
  }
})

/** Unmounts the tmpfs of an earlier run that crashed before its teardown. */
function unmountLeftovers(): void {
  const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '')
  for (const dir of mounts.filter((m) => m.startsWith(join(tmpdir(), PREFIX)))) {
    execFileSync('umount', ['-l', dir])
    rmSync(dir, { recursive: true, force: true })
  }
}

const root = process.getuid?.() === 0
t.test('the embedded database on a full disk', { skip: root ? false : 'mounting a small tmpfs needs root' }, async (t) => {
  unmountLeftovers()
  const dataDir = mkdtempSync(join(tmpdir(), PREFIX))
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dataDir])
  t.teardown(() => {
    execFileSync('umount', ['-l', dataDir])
    rmSync(dataDir, { recursive: true, force: true })
  })
  mkdirSync(dataDir, { recursive: true })
  let logged = ''
  const log = createLogger({ level: 'error', stream: new Writable({ write: (chunk: Buffer, _enc, cb) => ((logged += chunk.toString()), cb()) }) })
  const db = await openDb({ dataDir, log })
  t.teardown(() => db.close().catch(() => {}))
  await db.query('CREATE TABLE fill (t text)')
  let failure: unknown
  for (let i = 0; i < 200 && failure === undefined; i++) {
    await db.query('INSERT INTO fill SELECT repeat(md5(random()::text), 30) FROM generate_series(1, 2000)').catch((err: unknown) => (failure = err))
  }
  t.type(failure, DatabaseFullError, 'the disk filled up')
  t.equal((failure as Error).message, `The data directory ${dataDir} is full; free space on its disk, then retry`)
  t.notMatch((failure as Error).message, /pg_wal|base\/|No space left/, 'nothing of the database’s own layout')
  t.match(logged, /No space left on device/, 'the detail is in the log')
})

t.test('an upload onto a full data directory', { skip: root ? false : 'mounting a small tmpfs needs root' }, async (t) => {
  unmountLeftovers()
  const dataDir = mkdtempSync(join(tmpdir(), PREFIX))
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dataDir])
  t.teardown(() => {
    execFileSync('umount', ['-l', dataDir])
    rmSync(dataDir, { recursive: true, force: true })
  })
  const db = await openDb({ dataDir, log: silentLogger() })
  t.teardown(() => db.close().catch(() => {}))
  const api = await startApp(t, db)
  const id = await api.discover({ sites: ['BERLIN-01', 'LONDON-01', 'PARIS-01'] })
  const file = (await api.call('GET', `snapshots/${id}/download`)).text
  // the disk fills up with something else
  const filler = join(dataDir, 'filler')
  const block = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) appendFileSync(filler, block)
  } catch (err) {
    t.equal((err as { code?: string }).code, 'ENOSPC')
  }
  const up = await api.call('POST', 'snapshots/upload', file, { 'content-type': 'application/x-ndjson' })
  t.equal(up.status, 507, up.text.slice(0, 300))
  t.match(up.body, { code: 'API_STORAGE_FULL', message: `The data directory ${dataDir} is full; free space on its disk, then retry` })
  rmSync(filler)
  const jobs = (await api.call('POST', 'tables/jobs', { columns: ['name', 'status', 'message'], filters: { name: ['eq', 'snapshotUpload'] } })).body as { data: Array<{ message: string }> }
  t.match(jobs.data, [{ message: `import failed: The data directory ${dataDir} is full; free space on its disk, then retry` }], 'the job says the same')
  t.same(((await api.call('GET', 'snapshots')).body as Array<{ id: string }>).map((s) => s.id), [id], 'the refused upload left no snapshot behind')
})
