/**
 * An uploaded file sets nothing the API would refuse (issue 30, item 4), and its lines are held
 * to their size and nesting bounds while they are read, before anything parses them (item 5).
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'

const NDJSON = { 'content-type': 'application/x-ndjson' }

const meta = {
  name: 'file',
  note: null,
  settings: { profile: 'lab', seed: 1, sites: [] },
  sites: [],
  errors: [],
  counts: {},
  totalDevCount: 0,
  licensedDevCount: 0,
  deviceAddedCount: 0,
  deviceRemovedCount: 0,
  interfaceCount: 0,
  tsStart: 1_700_000_000_000,
  tsEnd: null,
  version: '1.0.0',
  initialVersion: '1.0.0',
  creatorUsername: 'alice',
}

/** A whole file without tables, its header's snapshot fields replaced by `fields`. */
function file(fields: Record<string, unknown>): string {
  const header = JSON.stringify({ format: 'netinv-snapshot', version: 1, snapshot: { ...meta, ...fields } })
  return `${header}\n${JSON.stringify({ eof: true, tables: 0, rows: 0 })}\n`
}

async function snapshotCount(api: Client): Promise<number> {
  return ((await api.call('GET', 'snapshots')).body as unknown[]).length
}

t.test('uploads on the embedded database', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)

  t.test('the header of an uploaded file is held to the limits of the API', async (t) => {
    const fits = await api.call('POST', 'snapshots/upload', file({ name: 'n'.repeat(255), note: 'm'.repeat(4000) }), NDJSON)
    t.equal(fits.status, 201, `a name of 255 characters and a note of 4000 are taken: ${fits.text.slice(0, 200)}`)
    const before = await snapshotCount(api)

    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a name of 256 characters', { name: 'n'.repeat(256) }, /^line 1: "snapshot\.name" must be a string of at most 255 characters, or null$/],
      ['a note of 4001 characters', { note: 'm'.repeat(4001) }, /^line 1: "snapshot\.note" must be a string of at most 4000 characters, or null$/],
      ['a creator name of 65 characters', { creatorUsername: 'u'.repeat(65) }, /^line 1: "snapshot\.creatorUsername" must be a string of at most 64 characters/],
      ['a site name of 256 characters', { sites: [{ siteName: 's'.repeat(256), uid: 'u', id: 'i' }] }, /^line 1: "snapshot\.sites\[0\]\.siteName" /],
      ['a seed the settings API refuses', { settings: { profile: 'lab', seed: -1, sites: [] } }, /^line 1: "snapshot\.settings\.seed" must be an integer between/],
      ['a name that is a number', { name: 5 }, /^line 1: "snapshot\.name" must be a string/],
    ]
    for (const [what, fields, message] of refused) {
      const r = await api.call('POST', 'snapshots/upload', file(fields), NDJSON)
      t.equal(r.status, 422, what)
      t.match(r.body, { code: 'API_INVALID_INPUT', message }, what)
    }
    const two = await api.call('POST', 'snapshots/upload', file({ name: 'n'.repeat(256), note: 'm'.repeat(4001) }), NDJSON)
    t.match((two.body as { errors: unknown[] }).errors, [{ path: 'snapshot.name' }, { path: 'snapshot.note' }], 'every problem of the header, by its path')
    t.equal(await snapshotCount(api), before, 'nothing refused is kept')
  })

  t.test('a snapshot name of 15 MiB is refused as the header line grows past its bound', async (t) => {
    const before = await snapshotCount(api)
    const r = await api.call('POST', 'snapshots/upload', file({ name: 'x'.repeat(15 * 1024 * 1024) }), NDJSON)
    t.equal(r.status, 422)
    t.match(r.body, { code: 'API_INVALID_INPUT', message: 'line 1: longer than 1048576 bytes', errors: [{ message: 'line too long' }] })
    t.equal(await snapshotCount(api), before)
  })

  t.test('a line nested deeper than 8 levels is refused before it is parsed', async (t) => {
    const before = await snapshotCount(api)
    // the finding's input: a header line of 14 MB nested 7 million deep
    const deep = 7 * 1024 * 1024
    const nested = await api.call('POST', 'snapshots/upload', `${'['.repeat(deep)}${']'.repeat(deep)}\n`, NDJSON)
    t.equal(nested.status, 422)
    t.match(nested.body, { code: 'API_INVALID_INPUT', message: 'line 1: arrays and objects nested deeper than 8 levels' })

    const header = file({}).split('\n')[0]!
    const rows = (row: string) => `${header}\n{"table":"inventory/devices","columns":["id","hostname"]}\n${row}\n{"end":"inventory/devices","rows":1}\n{"eof":true,"tables":1,"rows":1}\n`
    const row = await api.call('POST', 'snapshots/upload', rows(`["a",${'['.repeat(8)}${']'.repeat(8)}]`), NDJSON)
    t.match(row.body, { code: 'API_INVALID_INPUT', message: 'line 3: arrays and objects nested deeper than 8 levels' }, 'a row too')
    const long = await api.call('POST', 'snapshots/upload', rows(`["a","${'h'.repeat(64 * 1024 + 1)}"]`), NDJSON)
    t.match(long.body, { code: 'API_INVALID_INPUT', message: 'line 3: "[1]" (hostname) holds a text longer than 65536 characters' }, 'a text of a row beyond its bound')
    const inString = await api.call('POST', 'snapshots/upload', rows(`["a","${'['.repeat(100)}{{{"]`), NDJSON)
    t.equal(inString.status, 201, `brackets inside a string do not count: ${inString.text.slice(0, 200)}`)
    t.equal(await snapshotCount(api), before + 1)
  })
})
