import t from 'tap'
import fc from 'fast-check'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pino } from 'pino'
import { accessLogFields, accessLogger, isoNow, jsonString, msText } from '../../../src/gateway/pipeline/access-log.js'
import { GatewayRequest } from '../../../src/gateway/request.js'

/** A pino logger whose destination records each write it receives. */
function recordingLogger(): { log: pino.Logger; writes: string[] } {
  const writes: string[] = []
  const log = pino({ base: { service: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime }, { write: (s: string) => void writes.push(s) })
  return { log, writes }
}

function request(log: pino.Logger, id: string): GatewayRequest {
  const req = { socket: { remoteAddress: '10.1.2.3' } } as unknown as IncomingMessage
  const ctx = new GatewayRequest(req, {} as ServerResponse, log, 'GET', '/api/snapshots', '')
  ctx.requestId = id
  return ctx
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('access lines are held and reach the destination together, each a JSON line', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log, { flushMs: 20 })
  for (const id of ['r1', 'r2', 'r3']) access(request(log, id), 200, 1.5)
  await new Promise((r) => setImmediate(r))
  t.same(writes, [], 'held for flushMs')
  await tick(40)
  t.equal(writes.length, 1, 'one write')
  const lines = writes[0]!.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
  t.same(
    lines.map((l) => l.requestId),
    ['r1', 'r2', 'r3'],
  )
  t.match(lines[0], { level: 30, service: 'gateway', reqId: 'r1', method: 'GET', path: '/api/snapshots', status: 200, durationMs: 1.5, clientIp: '10.1.2.3', msg: 'request' })
  access(request(log, 'r4'), 404, 2)
  await tick(40)
  t.equal(writes.length, 2, 'later lines are written in turn')
})

t.test('64 KB of held lines are written at once', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log, { flushMs: 60_000 })
  let n = 0
  while (writes.length === 0 && n < 5000) access(request(log, `r${n++}`), 200, 1)
  t.equal(writes.length, 1, `written after ${n} lines, not after a minute`)
  t.ok(writes[0]!.length >= 64 * 1024)
  t.ok(n > 100, 'not line by line')
  access.flush()
})

t.test('flush() writes out the lines held for this turn at once (shutdown)', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log)
  access(request(log, 'last'), 200, 1)
  access.flush()
  t.equal(writes.length, 1)
  t.match(JSON.parse(writes[0]!) as Record<string, unknown>, { requestId: 'last' })
  await tick(80)
  t.equal(writes.length, 1, 'nothing is written twice')
})

t.test('jsonString writes what JSON.stringify writes, for any string', async (t) => {
  for (const s of ['', 'plain', 'with "quotes"', 'back\\slash', 'tab\there', 'nl\n', '\u0000', 'é', '\ud800', '😀', '\u007f']) {
    t.equal(jsonString(s), JSON.stringify(s), JSON.stringify(s))
  }
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => jsonString(s) === JSON.stringify(s)))
})

t.test('the line written holds exactly the listed fields of accessLogFields', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log)
  const ctx = request(log, 'r-fields')
  Object.assign(ctx, { generation: 'path', apiVersion: 2, clientIp: '10.9.9.9', principal: { id: 'u-"1"' } })
  access(ctx, 201, 3.14159)
  access.flush()
  const line = JSON.parse(writes[0]!) as Record<string, unknown>
  const { level, time, service, reqId, msg, ...fields } = line
  t.same(fields, accessLogFields(ctx, 201, 3.14159))
  t.same({ level, service, reqId, msg }, { level: 30, service: 'gateway', reqId: 'r-fields', msg: 'request' })
  t.match(time, /^\d{4}-\d\d-\d\dT/)
})

t.test('lines in a row from changing requests, clients and callers each hold their own fields (the parts reused from the line before are the same only while their inputs are)', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log)
  const alice = { id: 'u-alice' }
  const variants: Array<Record<string, unknown>> = [
    {},
    { principal: alice },
    { principal: alice },
    { principal: { id: 'u-bob' } },
    { clientIp: '10.9.9.9', principal: alice },
    { path: '/api/v1/snapshots', generation: 'original', principal: alice },
    { method: 'HEAD', path: '/api/v1/snapshots', generation: 'original' },
    { generation: 'header', apiVersion: 3 },
    {},
  ]
  const contexts = variants.map((v, i) => {
    const ctx = request(log, `r${i}`)
    const { method, path, ...rest } = v as { method?: string; path?: string }
    const made = method || path ? new GatewayRequest(ctx.req, ctx.res, log, method ?? 'GET', path ?? '/api/snapshots', '') : ctx
    made.requestId = `r${i}`
    Object.assign(made, rest)
    return made
  })
  for (const ctx of contexts) access(ctx, 200, 1)
  access.flush()
  const lines = writes.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
  t.equal(lines.length, contexts.length)
  lines.forEach((line, i) => {
    const { level: _l, time: _t, service: _s, reqId, msg: _m, ...fields } = line
    t.same(fields, accessLogFields(contexts[i]!, 200, 1), `line ${i}`)
    t.equal(reqId, `r${i}`)
  })
})

t.test('isoNow writes what toISOString writes', async (t) => {
  for (const ms of [0, 999, 59_999, 60_000, 1_700_000_000_000, 1_700_000_059_999, 1_700_000_060_001, Date.now(), 4_102_444_799_999]) {
    t.equal(isoNow(ms), new Date(ms).toISOString(), String(ms))
  }
  fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => isoNow(ms) === new Date(ms).toISOString()))
})

t.test('msText is the JSON number of the duration rounded to the microsecond', async (t) => {
  for (const ms of [0, 1.5, 2, 0.0004, 0.0005, 3.14159, 999.9995, 60_000.25, 1e9 + 0.001]) {
    t.equal(Number(msText(ms)), Math.round(ms * 1000) / 1000, String(ms))
  }
  t.equal(msText(1.5), '1.500')
  t.equal(msText(Number.NaN), 'null')
  t.equal(msText(Number.POSITIVE_INFINITY), 'null')
  fc.assert(fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), (ms) => Number(msText(ms)) === Math.round(ms * 1000) / 1000))
  t.equal(Number(msText(-1.25)), -1.25, 'negative (a clock step back)')
})

t.test('lines with non-ASCII text and very long paths arrive whole and in order', async (t) => {
  const { log, writes } = recordingLogger()
  const access = accessLogger(log, { flushMs: 60_000 })
  const paths = ['/api/sites/Zürich-北京-😀', `/api/${'x'.repeat(200_000)}`, '/api/after', `/api/${'é'.repeat(30_000)}`, '/api/last']
  for (const [i, path] of paths.entries()) {
    const ctx = request(log, `r${i}`)
    Object.assign(ctx, { path })
    access(ctx, 200, 1)
  }
  access.flush()
  const lines = writes.join('').trimEnd().split('\n').map((l) => JSON.parse(l) as { path: string; requestId: string })
  t.same(
    lines.map((l) => l.path),
    paths,
  )
  t.same(
    lines.map((l) => l.requestId),
    ['r0', 'r1', 'r2', 'r3', 'r4'],
  )
})
