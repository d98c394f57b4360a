/**
 * A CSV export cut by a database outage (issue 30, item 14), through the gateway as clients get
 * it: the backend that holds the export's cursor is terminated mid-stream (pg_terminate_backend,
 * a real outage of that connection). The export must not end as if whole: the client sees the
 * response aborted and no `X-Row-Count` trailer, and `netinv query --csv` exits non-zero; a
 * complete export ends with the trailer, equal to the rows it holds.
 */
import t from 'tap'
import { request, type IncomingMessage } from 'node:http'
import { Readable, Writable } from 'node:stream'
import pg from 'pg'
import { INTERFACES } from '../../src/inventory/catalog/inventory.js'
import { runCli } from '../../src/commands/main.js'
import { DATABASE_URL, freshPostgres } from '../helpers/db.js'
import { LAB_ID, labSnapshot } from '../inventory/reports/lab.js'
import { startInventory } from '../inventory/routes/server.js'
import { startTestGateway } from './helpers.js'

const COLUMNS = INTERFACES.columns.map((c) => c.name)

interface Export {
  status: number
  trailer: string | undefined
  declared: string | undefined
  rows: number
  /** How the body ended: 'end' (whole), or the error or abort that cut it. */
  ended: string
}

/** POSTs the export; `hold` is awaited after the first chunk (the client stops reading meanwhile). */
function exportCsv(base: string, hold: () => Promise<void> = async () => {}): Promise<Export> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/tables/inventory/interfaces`, { method: 'POST', headers: { 'x-api-token': 'reader-key', 'content-type': 'application/json', accept: 'text/csv' } }, (res: IncomingMessage) => {
      let lines = 0
      let first = true
      const done = (ended: string) => resolve({ status: res.statusCode ?? 0, trailer: res.trailers['x-row-count'], declared: res.headers.trailer, rows: lines - 1, ended })
      res.on('data', (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 10) lines++
        if (first) {
          first = false
          res.pause()
          void hold().then(() => res.resume())
        }
      })
      res.on('end', () => done('end'))
      res.on('aborted', () => done('aborted'))
      res.on('error', (err: NodeJS.ErrnoException) => done(`error ${err.code ?? err.message}`))
    })
    req.on('error', reject)
    req.end(JSON.stringify({ snapshot: LAB_ID, columns: COLUMNS }))
  })
}

/** Terminates the backend that holds the export's open cursor (idle in its transaction while the client does not read). */
async function cutTheCursor(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  try {
    for (let i = 0; i < 200; i++) {
      const r = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%' AND query ILIKE '%fetch%'`,
        [database],
      )
      if (r.rows.length > 0) {
        for (const { pid } of r.rows) await admin.query('SELECT pg_terminate_backend($1)', [pid])
        return r.rows.length
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return 0
  } finally {
    await admin.end()
  }
}

t.test('a CSV export: whole with its row count trailer, or aborted without it when the database goes away mid-export', async (t) => {
  const { db, url } = await freshPostgres(t)
  const database = new URL(url).pathname.slice(1)
  const counts = await labSnapshot(db, LAB_ID, 7, 'small')
  // Rows wide enough (about 25 MB in all) that the sockets and buffers between the database and a
  // client that stops reading cannot hold the whole export: the cursor is still open while the
  // client holds, however fast the machine is (with the lab's own descriptions, about 0.8 MB,
  // a quiet machine sent the whole export before the cut).
  await db.query(`UPDATE inventory.interfaces SET dscr = repeat('d', 1000) WHERE snapshot_id = $1`, [LAB_ID])
  const inv = await startInventory(t, db)
  const gw = await startTestGateway(t, { upstreamUrl: inv.url })

  const whole = await exportCsv(gw.url)
  t.equal(whole.status, 200)
  t.equal(whole.ended, 'end')
  t.equal(whole.declared, 'X-Row-Count', 'the trailer is declared, and passes the gateway')
  t.equal(whole.rows, counts['inventory/interfaces'], `every row (${whole.rows})`)
  t.equal(whole.trailer, String(whole.rows), 'the trailer gives the row count')

  let terminated = 0
  const cut = await exportCsv(gw.url, async () => {
    terminated = await cutTheCursor(database)
  })
  t.equal(terminated, 1, 'the backend of the export was terminated while the export ran')
  t.equal(cut.status, 200, 'the export had begun')
  t.not(cut.ended, 'end', `the response is aborted, not ended as if whole (${cut.ended}, after ${cut.rows} rows)`)
  t.equal(cut.trailer, undefined, 'no row count trailer')
  t.ok(cut.rows < whole.rows, 'short')

  // netinv query --csv: the same outage while its output is held.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let held = false
  let stdoutBytes = 0
  const stdout = new Writable({
    write(chunk: Buffer, _enc, done) {
      stdoutBytes += chunk.length
      if (held) return done()
      held = true
      void released.then(() => done())
    },
  })
  const stderr: string[] = []
  const io = {
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', NETINV_TOKEN: 'reader-key', NETINV_URL: gw.url },
    stdin: Readable.from([]),
    stdout,
    stderr: new Writable({ write: (chunk: Buffer, _enc, done) => (stderr.push(chunk.toString()), done()) }),
    onInterrupt: () => () => undefined,
  }
  const running = runCli(['query', 'interfaces', '--snapshot', LAB_ID, '--csv'], io)
  const cliTerminated = await cutTheCursor(database)
  release()
  const code = await running
  t.equal(cliTerminated, 1, 'the backend of its export was terminated')
  t.not(code, 0, `netinv query --csv fails (exit ${code}, ${stdoutBytes} bytes written): ${stderr.join('').trim()}`)
  t.match(stderr.join(''), /cut|incomplete/, 'and says the output is incomplete')
})
