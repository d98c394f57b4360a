/**
 * A span per statement on both engines, under the span active where it was issued, exported by
 * OTLP/HTTP (JSON) to a receiver this test runs; a bulk load inside a traced transaction still
 * runs on the transaction's connection.
 */
import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { tracedDb } from '../../../src/shared/tracing/db.js'
import { startTracing, stopTracing } from '../../../src/shared/tracing/index.js'

const bodies: string[] = []
const server = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8').on('data', (c: string) => (body += c))
  req.on('end', () => {
    bodies.push(body)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
})
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
t.teardown(() => new Promise<void>((r) => server.close(() => r())))
const tr = (await startTracing({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, serviceName: 'db-test', trustTraceparent: false, sampleRatio: 1 }))!

interface Got {
  name: string
  spanId: string
  parentSpanId: string
  attributes: { key: string; value: { stringValue?: string } }[]
}
const exported = (): Got[] =>
  bodies.flatMap((b) => (JSON.parse(b) as { resourceSpans: { scopeSpans: { spans: Got[] }[] }[] }).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))

for (const engine of ENGINES) {
  t.test(engine, async (t) => {
    const db = tracedDb(await freshDb(t, engine), tr)
    await db.query('SELECT 1 AS untraced') // no span active: not traced
    const root = tr.root(`test ${engine}`)
    await tr.within(root, async () => {
      await db.exec('CREATE TABLE traced_t (n int)')
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO traced_t VALUES ($1)', [1])
        await db.copyFrom('COPY traced_t (n) FROM STDIN WITH (FORMAT csv)', (async function* () {
          yield '2\n3\n'
        })(), tx)
      })
      const r = await db.query<{ c: number }>('SELECT count(*)::int AS c FROM traced_t')
      t.equal(r.rows[0]?.c, 3, 'the bulk load ran in the transaction, which committed')
    })
    root.end()
  })
}

t.test('the statements are spans under the active span, per engine', async (t) => {
  await stopTracing()
  const spans = exported()
  t.notOk(spans.some((s) => s.attributes.some((a) => a.value.stringValue === 'SELECT 1 AS untraced')), 'a statement outside any span is not traced')
  for (const engine of ENGINES) {
    const root = spans.find((s) => s.name === `test ${engine}`)
    t.ok(root, `the ${engine} root span`)
    const under = spans.filter((s) => s.parentSpanId === root?.spanId)
    t.same(under.map((s) => s.name).sort(), ['db copy', 'db exec', 'db query', 'db query'].sort(), `${engine}: exec, insert in the transaction, copy, select`)
    const system = under[0]?.attributes.find((a) => a.key === 'db.system')?.value.stringValue
    t.equal(system, engine === 'postgres' ? 'postgresql' : 'pglite')
  }
})
