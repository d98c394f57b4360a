import t from 'tap'
import { request, type IncomingMessage } from 'node:http'
import { freshPostgres } from '../../helpers/db.js'
import { csvField, csvLine } from '../../../src/inventory/query/index.js'
import { registerTableRoutes } from '../../../src/inventory/routes/tables.js'
import { startRoutes } from '../routes/server.js'
import { INTERNAL_HEADER, encodeInternal } from '../../../src/shared/principal.js'
import { ITEMS, createItems } from './fixture.js'

t.test('CSV fields', async (t) => {
  t.equal(csvField(null), '')
  t.equal(csvField('plain'), 'plain')
  t.equal(csvField('a,b'), '"a,b"')
  t.equal(csvField('say "hi"'), '"say ""hi"""')
  t.equal(csvField('two\nlines'), '"two\nlines"')
  t.equal(csvField(' padded'), '" padded"')
  t.equal(csvField(['a', 'b']), '"[""a"",""b""]"')
  t.equal(csvField({ ip: '10.0.0.1' }), '"{""ip"":""10.0.0.1""}"')
  t.equal(csvField(12.5), '12.5')
  t.equal(csvField(false), 'false')
  t.equal(csvLine(['a', null, 3]), 'a,,3\r\n')
})

t.test('a text a spreadsheet would run as a formula is exported as text', async (t) => {
  t.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`)
  t.equal(csvField('+cmd|calc'), "'+cmd|calc")
  t.equal(csvField('-2+3'), "'-2+3")
  t.equal(csvField('@SUM(A1)'), "'@SUM(A1)")
  t.equal(csvField('\t=1'), "'\t=1")
  t.equal(csvField(-5), '-5', 'a number is a number')
  t.equal(csvField('a=b'), 'a=b', 'only at the start')
})

t.test('a large export streams from a cursor', async (t) => {
  const { db } = await freshPostgres(t)
  await createItems(db)
  const rows = 120_000
  await db.exec(`CREATE TABLE qt.items_big PARTITION OF qt.items FOR VALUES IN ('big');
    INSERT INTO qt.items (snapshot_id, id, name, count, tags) SELECT 'big', 'r' || lpad(g::text, 7, '0'), 'name, "' || g, g, ARRAY['t' || g] FROM generate_series(1, ${rows}) g`)
  const server = await startRoutes(t, db, (router, deps) => {
    registerTableRoutes(router, deps, { findTable: (p) => (p === ITEMS.path ? ITEMS : undefined), resolveSnapshot: async (_db, ref) => ref })
  })
  const body = JSON.stringify({ snapshot: 'big', columns: ['id', 'name', 'count', 'tags'], sort: { column: 'id', order: 'asc' }, format: { exportToFile: true, dataType: 'csv' } })
  const url = new URL(`${server.url}/api/tables/${ITEMS.path}`)

  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', [INTERNAL_HEADER]: encodeInternal({ secret: 'test-internal-secret', apiVersion: 1, generation: 'header' }) } }, resolve)
    req.on('error', reject)
    req.end(body)
  })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/csv/)
  res.pause()
  // While the client reads nothing, the export waits on its open cursor: rows are fetched in
  // batches, never all at once.
  let waiting = false
  for (let i = 0; i < 200 && !waiting; i++) {
    const r = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE 'FETCH % FROM netinv_cursor'",
    )
    waiting = (r.rows[0]?.n ?? 0) > 0
    if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25))
  }
  t.ok(waiting, 'the export is parked on its cursor while the client does not read')
  let text = ''
  res.setEncoding('utf8')
  for await (const chunk of res) text += chunk as string
  const lines = text.trimEnd().split('\r\n')
  t.equal(lines[0], 'id,name,count,tags')
  t.equal(lines.length, rows + 1, 'every row')
  t.equal(lines[1], 'r0000001,"name, ""1",1,"[""t1""]"')
  t.equal(lines[rows], `r${String(rows).padStart(7, '0')},"name, ""${rows}",${rows},"[""t${rows}""]"`)
})
