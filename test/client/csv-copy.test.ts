import t from 'tap'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { ClientError } from '../../src/client/api.js'
import { copyCsv } from '../../src/client/csv-copy.js'

/** A server answering each request with `answer`; resolves with a function that GETs it. */
async function serving(t: { teardown(fn: () => unknown): void }, answer: (res: ServerResponse) => void): Promise<() => Promise<IncomingMessage>> {
  const server = createServer((_req, res) => answer(res))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return () => new Promise((resolve, reject) => request(url, { agent: false }, resolve).on('error', reject).end())
}

const sink = () => {
  let text = ''
  return { out: new Writable({ write: (c: Buffer, _e, done) => ((text += c.toString()), done()) }), text: () => text }
}

const ROWS = 'a,b\r\n1,"two\r\nlines"\r\n2,x\r\n'

t.test('a whole export: its rows copied, the count checked (a line break inside quotes is no row)', async (t) => {
  const get = await serving(t, (res) => {
    res.writeHead(200, { 'content-type': 'text/csv', trailer: 'X-Row-Count' })
    res.addTrailers({ 'X-Row-Count': '2' })
    res.end(ROWS)
  })
  const { out, text } = sink()
  t.equal(await copyCsv(await get(), out), 2)
  t.equal(text(), ROWS)
})

t.test('an export ended cleanly but short of its count, or without the trailer it declared, fails', async (t) => {
  const wrong = await serving(t, (res) => {
    res.writeHead(200, { trailer: 'X-Row-Count' })
    res.addTrailers({ 'X-Row-Count': '3' })
    res.end(ROWS)
  })
  await t.rejects(copyCsv(await wrong(), sink().out), new ClientError('the export holds 2 rows of the 3 the server sent: the output is incomplete'))
  const missing = await serving(t, (res) => {
    res.writeHead(200, { trailer: 'X-Row-Count' })
    res.end(ROWS)
  })
  await t.rejects(copyCsv(await missing(), sink().out), new ClientError('the export ended without its row count after 2 rows: the output may be incomplete'))
})

t.test('an export cut mid-body (no last chunk) fails', async (t) => {
  const get = await serving(t, (res) => {
    res.writeHead(200, { trailer: 'X-Row-Count' })
    res.write(ROWS)
    setTimeout(() => res.destroy(), 20)
  })
  await t.rejects(copyCsv(await get(), sink().out), { name: 'ClientError', message: /^the export was cut after 2 rows/ })
})

t.test('a server that declares no trailer: the rows are copied as they come', async (t) => {
  const get = await serving(t, (res) => {
    res.writeHead(200, { 'content-type': 'text/csv' })
    res.end(ROWS)
  })
  t.equal(await copyCsv(await get(), sink().out), 2)
})
