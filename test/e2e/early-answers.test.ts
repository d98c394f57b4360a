/**
 * Answers given before the request's body has all arrived, through `netinv serve`: the gateway's
 * own (413 to a body over the limit) and the inventory's (422 to an upload whose first line is
 * not a snapshot file). The client gets the answer, not a broken pipe, and no connection on the
 * way keeps the unread rest of a body for the next request to trip over.
 */
import t from 'tap'
import { request } from 'node:http'
import { connect } from 'node:net'
import { call } from './client.js'
import { dirsEnv, serve, tempDirs } from './process.js'
import { freshPostgres } from '../helpers/db.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'
const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`

/** How a request ends within 10 s (a generous bound for a hang: the failure took 63 s). */
function within10s(base: string, path: string, headers: Record<string, string>): Promise<string> {
  const u = new URL(base)
  return new Promise<string>((resolve) => {
    const hung = setTimeout(() => resolve('no answer after 10 s'), 10_000)
    const req = request({ host: u.hostname, port: u.port, path, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => {
        clearTimeout(hung)
        resolve(String(res.statusCode))
      })
    })
    req.on('error', (err) => {
      clearTimeout(hung)
      resolve(err.message)
    })
    req.end()
  })
}

t.test('early answers through netinv serve', async (t) => {
  const dirs = tempDirs(t)
  const app = await serve(t, { ...dirsEnv(dirs), ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url })
  const made = await call(app.url, 'POST', '/api/api-tokens', { headers: { authorization: basic }, body: { description: 'early', scope: ['read', 'write'] } })
  t.equal(made.status, 201)
  const key = { 'x-api-token': made.json<{ token: string }>().token }

  t.test('a rejected upload does not poison the gateway → inventory connection', async (t) => {
    // A first line that is no snapshot header, then 1 MB more: the inventory answers 422 after
    // the first line, long before it could have read the rest, which the gateway has already
    // handed over to the connection.
    const body = Buffer.concat([Buffer.from('{"not":"a snapshot header"}\n'), Buffer.alloc(1024 * 1024, 'x')])
    for (let i = 0; i < 3; i++) {
      const upload = await call(app.url, 'POST', '/api/snapshots/upload', { headers: { ...key, 'content-type': 'application/x-ndjson' }, body })
      t.equal(upload.status, 422, 'the upload is refused')
      t.match(upload.json(), { code: 'API_INVALID_INPUT', message: /not a netinv-snapshot file/ })
      // The next request, on whichever upstream connection the gateway picks (it reuses the
      // most recent first).
      t.equal(await within10s(app.url, '/api/snapshots', key), '200', 'the next request is answered')
    }
  })

  t.test('an upload of 100 MB without a newline gets its 422 "line too long", not a 502', async (t) => {
    // The inventory refuses the line at 16 MiB and keeps reading (throwing it away) so that its
    // answer reaches the gateway, which passes it on while the client is still sending.
    const u = new URL(app.url)
    const total = 100 * 1024 * 1024
    const chunk = Buffer.alloc(256 * 1024, 'a')
    const outcome = await new Promise<{ status: number; body: string } | string>((resolve) => {
      const req = request({ host: u.hostname, port: u.port, method: 'POST', path: '/api/snapshots/upload', agent: false, headers: { ...key, 'content-type': 'application/x-ndjson', 'content-length': String(total) } }, (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (d: string) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        res.on('error', (err) => resolve(`response: ${err.message}`))
      })
      // an error writing the rest of the body after the answer came is the client's own business
      req.on('error', (err) => resolve(`request: ${err.message}`))
      let sent = 0
      const more = (): void => {
        while (sent < total) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', more)
        }
        req.end()
      }
      more()
    })
    t.match(outcome, { status: 422 }, 'the inventory’s refusal reaches the client')
    if (typeof outcome === 'object') t.match(JSON.parse(outcome.body), { code: 'API_INVALID_INPUT', message: /longer than \d+ bytes/ })
    t.equal(await within10s(app.url, '/api/snapshots', key), '200', 'the next request is answered')
  })

  t.test('a body over the limit gets 413, never a broken pipe', async (t) => {
    const huge = Buffer.alloc(2 * 1024 * 1024, 'a')
    const seen: Record<string, number> = {}
    for (let i = 0; i < 20; i++) {
      const outcome = await fetch(`${app.url}/api/tables/inventory/devices`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: huge }).then(
        async (r) => `${r.status} ${(await r.json() as { code: string }).code}`,
        (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
      )
      seen[outcome] = (seen[outcome] ?? 0) + 1
    }
    t.same(seen, { '413 API_PAYLOAD_TOO_LARGE': 20 }, 'every one of 20 clients read its 413')
  })

  t.test('after its 413 the connection reads the rest of the body before it closes', async (t) => {
    // A client that reads the answer at once and only then sends the rest of its body: the
    // connection must take it (discarding it) and then close, not answer it with a reset.
    const u = new URL(app.url)
    const socket = connect(Number(u.port), u.hostname)
    let answer = ''
    let failure: string | undefined
    socket.on('error', (err) => (failure = err.message))
    const answered = new Promise<void>((resolve) => socket.on('data', (d: Buffer) => ((answer += d.toString('latin1')), answer.includes('}') && resolve())))
    const closed = new Promise<boolean>((resolve) => socket.once('close', resolve))
    const size = 2 * 1024 * 1024
    socket.write(`POST /api/tables/inventory/devices HTTP/1.1\r\nhost: x\r\nx-api-token: ${key['x-api-token']}\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`)
    socket.write(Buffer.alloc(64 * 1024, 'a'))
    await answered
    t.match(answer, /^HTTP\/1\.1 413 /, '413 at once')
    t.match(answer, /\r\nconnection: close\r\n/i, 'announcing that the connection closes')
    let ended = false
    socket.once('end', () => (ended = true))
    socket.write(Buffer.alloc(size - 64 * 1024, 'a'))
    const hadError = await closed
    t.equal(failure, undefined, 'the rest of the body was read, not reset')
    t.equal(hadError, false)
    t.ok(ended, 'then the connection closed cleanly')
  })
})
