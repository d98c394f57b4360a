/**
 * `netinv diff` against the comparison contract of the API, served here by a small HTTP server
 * that follows it over two in-memory snapshots of an interfaces table:
 *   GET  /api/snapshots/{b}/changes?against=<a>  → {snapshot, against, tables: [{table, added, removed, changed}]}
 *   POST /api/tables/<path> {snapshot: b, compare: {snapshot: a}, columns, filters, pagination}
 *        → rows with `change` (added|removed|changed) and `diff` ({col: {old, new}} or null),
 *          filterable by `change`; CSV with Accept: text/csv.
 * The same commands run against the real service once it answers these endpoints. The command
 * line runs in this process (src/commands/main.ts, what src/cli.ts runs).
 */
import t, { type Test } from 'tap'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { netinvHere as netinv, tempHome } from './cli.js'

type Row = Record<string, unknown>

const KEY = 'nik_test-key'
const COLUMNS = ['id', 'hostname', 'intName', 'l1', 'mtu']
const SNAPSHOTS: Record<string, Row[]> = {
  s1: [
    { id: '1', hostname: 'r1', intName: 'Gi0/1', l1: 'up', mtu: 1500 },
    { id: '2', hostname: 'r1', intName: 'Gi0/2', l1: 'up', mtu: 1500 },
    { id: '3', hostname: 'r2', intName: 'Gi0/1', l1: 'down', mtu: 1500 },
  ],
  s2: [
    { id: '1', hostname: 'r1', intName: 'Gi0/1', l1: 'up', mtu: 1500 },
    { id: '2', hostname: 'r1', intName: 'Gi0/2', l1: 'down', mtu: 9000 },
    { id: '4', hostname: 'r3', intName: 'Gi0/9', l1: 'up', mtu: 1500 },
  ],
}
const ORDER = ['s1', 's2']

/** The compared rows of b against a by the natural key (hostname, intName); id is volatile. */
function compared(a: string, b: string): Row[] {
  const key = (r: Row) => `${String(r.hostname)}|${String(r.intName)}`
  const before = new Map(SNAPSHOTS[a]!.map((r) => [key(r), r]))
  const after = new Map(SNAPSHOTS[b]!.map((r) => [key(r), r]))
  const rows: Row[] = []
  for (const [k, r] of after) {
    const old = before.get(k)
    if (!old) rows.push({ ...r, change: 'added', diff: null })
    else {
      const diff = Object.fromEntries(COLUMNS.filter((c) => c !== 'id' && old[c] !== r[c]).map((c) => [c, { old: old[c], new: r[c] }]))
      if (Object.keys(diff).length > 0) rows.push({ ...r, change: 'changed', diff })
    }
  }
  for (const [k, r] of before) if (!after.has(k)) rows.push({ ...r, change: 'removed', diff: null })
  return rows
}

/** eq filters, `and` / `or` of them: what the CLI sends for --filter col:eq:v and --change. */
function matches(row: Row, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([k, v]) => {
    if (k === 'and') return (v as Row[]).every((f) => matches(row, f))
    if (k === 'or') return (v as Row[]).some((f) => matches(row, f))
    const [op, value] = v as [string, unknown]
    if (op !== 'eq') throw new Error(`operator ${op} is not in this fake`)
    return row[k] === value
  })
}

interface Fake {
  url: string
  bodies: Row[]
}

async function readBody(req: IncomingMessage): Promise<Row> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return JSON.parse(text) as Row
}

async function fakeApi(t: Test): Promise<Fake> {
  const bodies: Row[] = []
  const resolve = (ref: string, of?: string) => (ref === '$last' ? 's2' : ref === '$prev' ? ORDER[ORDER.indexOf(of ?? 's2') - 1] : SNAPSHOTS[ref] ? ref : undefined)
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const notFound = () => send(404, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
    if (req.headers['x-api-token'] !== KEY) return send(401, { code: 'API_INVALID_API_TOKEN', message: 'Invalid API Token' })
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'GET' && url.pathname === '/api/tables') {
      return send(200, [
        { path: 'inventory/interfaces', legacyPaths: [], title: 'Interfaces', snapshotScoped: true, columns: COLUMNS.map((name) => ({ name, type: name === 'mtu' ? 'integer' : 'string' })) },
        { path: 'inventory/devices', legacyPaths: [], title: 'Devices', snapshotScoped: true, columns: [{ name: 'id', type: 'string' }] },
      ])
    }
    const changes = /^\/api\/snapshots\/([^/]+)\/changes$/.exec(url.pathname)
    if (req.method === 'GET' && changes) {
      const b = resolve(decodeURIComponent(changes[1]!))
      const a = b && resolve(url.searchParams.get('against') ?? '$prev', b)
      if (!a || !b) return notFound()
      const rows = compared(a, b)
      const count = (c: string) => rows.filter((r) => r.change === c).length
      return send(200, {
        snapshot: b,
        against: a,
        tables: [
          { table: 'inventory/interfaces', added: count('added'), removed: count('removed'), changed: count('changed') },
          { table: 'inventory/devices', added: 0, removed: 0, changed: 0 },
        ],
      })
    }
    if (req.method === 'POST' && url.pathname === '/api/tables/inventory/interfaces') {
      void readBody(req).then((body) => {
        bodies.push(body)
        const b = resolve(String(body.snapshot))
        const a = b && resolve(String((body.compare as Row).snapshot), b)
        if (!a || !b) return notFound()
        const columns = body.columns as string[]
        const all = compared(a, b).filter((r) => !body.filters || matches(r, body.filters as Row))
        const { start = 0, limit = all.length } = (body.pagination ?? {}) as { start?: number; limit?: number }
        const data: Row[] = all.slice(start, start + limit).map((r) => ({ ...Object.fromEntries(columns.map((c) => [c, r[c]])), change: r.change, diff: r.diff }))
        if (req.headers.accept === 'text/csv') {
          res.writeHead(200, { 'content-type': 'text/csv' })
          return res.end([['change', ...columns].join(','), ...data.map((r) => [r.change, ...columns.map((c) => String(r[c]))].join(','))].join('\r\n') + '\r\n')
        }
        send(200, { data, _meta: { start, limit, count: all.length, size: data.length } })
      })
      return
    }
    notFound()
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  t.teardown(() => new Promise((closed) => server.close(closed)))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies }
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '')

t.test('netinv diff over the comparison contract', async (t) => {
  const api = await fakeApi(t)
  const env = { HOME: tempHome(t), NETINV_URL: api.url, NETINV_TOKEN: KEY }

  t.test('the summary: the tables that changed with their counts', async (t) => {
    const r = await netinv(['diff', '$prev', '$last'], env)
    t.equal(r.code, 0, r.stderr)
    t.same(lines(r.stdout).map((l) => l.split(/\s+/)), [
      ['snapshot', 's2', 'against', 's1:', '1', 'table', 'changed'],
      ['table', 'added', 'removed', 'changed'],
      ['inventory/interfaces', '1', '1', '1'],
    ])
    const json = await netinv(['diff', 's1', 's2', '--json'], env)
    t.match(JSON.parse(json.stdout), { snapshot: 's2', against: 's1', tables: [{ table: 'inventory/interfaces', added: 1 }, { table: 'inventory/devices' }] })
    const csv = await netinv(['diff', 's1', 's2', '--csv'], env)
    t.equal(csv.stdout, 'table,added,removed,changed\r\ninventory/interfaces,1,1,1\r\ninventory/devices,0,0,0\r\n')
    const same = await netinv(['diff', 's2', 's2'], env)
    t.equal(same.stdout, 'snapshot s2 against s2: no change\n')
  })

  t.test('the rows of one table: change, and old → new in the columns that changed', async (t) => {
    api.bodies.length = 0
    const r = await netinv(['diff', 's1', 's2', '--table', 'interfaces', '--columns', 'hostname,intName,l1,mtu'], env)
    t.equal(r.code, 0, r.stderr)
    t.same(api.bodies, [{ columns: ['hostname', 'intName', 'l1', 'mtu'], snapshot: 's2', compare: { snapshot: 's1' }, pagination: { start: 0, limit: 1000 } }], 'the request of the contract')
    t.same(lines(r.stdout).map((l) => l.split(/ {2,}/)), [
      ['change', 'hostname', 'intName', 'l1', 'mtu'],
      ['changed', 'r1', 'Gi0/2', 'up → down', '1500 → 9000'],
      ['added', 'r3', 'Gi0/9', 'up', '1500'],
      ['removed', 'r2', 'Gi0/1', 'down', '1500'],
    ])
  })

  t.test('filtered by change and by column, paged, as JSON and CSV', async (t) => {
    api.bodies.length = 0
    const r = await netinv(['diff', 's1', 's2', '--table', 'inventory/interfaces', '--columns', 'hostname,intName', '--change', 'added,removed', '--filter', 'hostname:eq:r3', '--json'], env)
    t.equal(r.code, 0, r.stderr)
    t.same(api.bodies[0]?.filters, { and: [{ hostname: ['eq', 'r3'] }, { or: [{ change: ['eq', 'added'] }, { change: ['eq', 'removed'] }] }] })
    t.same(lines(r.stdout).map((l) => JSON.parse(l) as Row), [{ hostname: 'r3', intName: 'Gi0/9', change: 'added', diff: null }])
    const changed = await netinv(['diff', 's1', 's2', '--table', 'interfaces', '--columns', 'intName,mtu', '--change', 'changed', '--json'], env)
    t.same(lines(changed.stdout).map((l) => JSON.parse(l) as Row), [{ intName: 'Gi0/2', mtu: 9000, change: 'changed', diff: { l1: { old: 'up', new: 'down' }, mtu: { old: 1500, new: 9000 } } }])
    const paged = await netinv(['diff', 's1', 's2', '--table', 'interfaces', '--columns', 'intName', '--page-size', '1', '--json'], env)
    t.equal(lines(paged.stdout).length, 3, 'every row, a page at a time')
    const csv = await netinv(['diff', 's1', 's2', '--table', 'interfaces', '--columns', 'hostname,intName', '--change', 'removed', '--csv'], env)
    t.equal(csv.code, 0, csv.stderr)
    t.equal(csv.stdout, 'change,hostname,intName\r\nremoved,r2,Gi0/1\r\n', 'the CSV of the API')
  })

  t.test('mistakes and errors', async (t) => {
    const missing = await netinv(['diff', 's1'], env)
    t.equal(missing.code, 2)
    t.match(missing.stderr, 'netinv diff: missing <b>')
    const change = await netinv(['diff', 's1', 's2', '--table', 'interfaces', '--change', 'modified'], env)
    t.equal(change.code, 2)
    t.match(change.stderr, '--change takes added, removed, changed, not "modified"')
    const withoutTable = await netinv(['diff', 's1', 's2', '--columns', 'mtu'], env)
    t.equal(withoutTable.code, 2)
    t.match(withoutTable.stderr, '--columns applies to the rows of one table: add --table <table>')
    const unknown = await netinv(['diff', 's1', 'nope'], env)
    t.equal(unknown.code, 1)
    t.match(unknown.stderr, 'netinv diff: Requested Resource Not Found (HTTP 404 API_NOT_FOUND)')
    const typo = await netinv(['diff', 's1', 's2', '--tabel', 'interfaces'], env)
    t.equal(typo.code, 2)
    t.match(typo.stderr, 'unknown option --tabel (did you mean --table?)')
  })
})
