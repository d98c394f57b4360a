/**
 * JSON bodies with text no stored string can hold (U+0000, unpaired surrogates), bodies that are
 * not UTF-8 and charsets other than UTF-8: refused at the door, before any handler or database
 * sees them, each problem named with its path.
 */
import t, { type Test } from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { silentLogger } from '../../../src/shared/log.js'
import { readJson, sendError, sendJson } from '../../../src/shared/http/index.js'
import { unstorableText } from '../../../src/shared/http/json-text.js'

/** A server that answers what `readJson` made of the body (`got`), or the error it threw. */
async function echoServer(t: Test): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    readJson(req, 1 << 20).then(
      (v) => sendJson(res, 200, { got: v ?? null }),
      (err: unknown) => sendError(res, err, silentLogger()),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

t.test('every string and key with U+0000 or an unpaired surrogate is named with its path', async (t) => {
  const raw = '{"a":"x\\u0000","b":["ok","\\ud800"],"c":{"d\\u0000":1,"e":"\\udc00y"},"emoji":"\\ud83d\\ude00","f":[[1,"\\u0000"]]}'
  t.same(
    unstorableText(raw, JSON.parse(raw)).map((i) => [i.path, i.message]),
    [
      ['a', '"a" must not contain the character U+0000'],
      ['b[1]', '"b[1]" must not contain an unpaired surrogate (U+D800–U+DFFF)'],
      ['c', 'a key of "c" must not contain the character U+0000'],
      ['c.e', '"c.e" must not contain an unpaired surrogate (U+D800–U+DFFF)'],
      ['f[0][1]', '"f[0][1]" must not contain the character U+0000'],
    ],
  )
  t.same(unstorableText('"\\ud800"', '\ud800').map((i) => i.path), ['value'], 'the body itself')
  t.same(unstorableText('{"value":{"a/b":"\\u0000"}}', { value: { 'a/b': '\0' } }).map((i) => i.path), ['value.a/b'], 'a key named value, and one with a slash, named as the validator names them')
  t.same(unstorableText('{"a":"\\ud83d\\ude00 \\u0041"}', { a: '😀 A' }), [], 'a surrogate pair and other escapes are fine')
  t.same(unstorableText('{"a":"x"}', { a: '\0' }), [], 'text without such an escape is not walked')
})

t.test('readJson: 422 for such text, 400 for bytes that are not UTF-8, 415 for another charset', async (t) => {
  const url = await echoServer(t)
  const post = async (body: string | Buffer, type = 'application/json') => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body })
    return { status: r.status, body: (await r.json()) as Record<string, unknown> }
  }
  t.match(await post('{"snList":["a\\u0000b"]}'), { status: 422, body: { code: 'API_INVALID_INPUT', errors: [{ message: '"snList[0]" must not contain the character U+0000', path: 'snList[0]' }] } })
  t.match(await post('{"name":"\\ud800"}'), { status: 422, body: { errors: [{ path: 'name' }] } })
  t.match(await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), { status: 400, body: { code: 'API_MALFORMED_REQUEST', message: 'The request body is not valid UTF-8' } })
  t.match(await post('{"a":"b"}', 'application/json; charset=utf-16'), { status: 415 })
  t.match(await post('{"a":"é 😀"}', 'application/json; charset=UTF-8'), { status: 200, body: { got: { a: 'é 😀' } } })
})

t.test('readJson: a body in a content or transfer coding is 415, not read as if plain', async (t) => {
  const url = await echoServer(t)
  const { gzipSync } = await import('node:zlib')
  const gz = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{"a":1}') })
  t.equal(gz.status, 415)
  t.match(await gz.json(), { code: 'API_UNSUPPORTED_MEDIA_TYPE', message: /no content or transfer coding/ })
  const br = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: '{"a":1}' })
  t.equal(br.status, 415, 'a coding the body does not have is refused too')
  const identity = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: '{"a":1}' })
  t.same([identity.status, await identity.json()], [200, { got: { a: 1 } }])
  const chunked = await rawPost(url, 'Transfer-Encoding: gzip, chunked', '0\r\n\r\n')
  t.match(chunked, /^HTTP\/1\.1 415 /, 'a transfer coding other than chunked')
})

/** A raw HTTP/1.1 POST with one extra header line; the status line and the rest of the answer. */
async function rawPost(url: string, header: string, body: string): Promise<string> {
  const { connect } = await import('node:net')
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    let text = ''
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n${header}\r\n\r\n${body}`))
    socket.setEncoding('latin1').on('data', (c: string) => (text += c))
    socket.once('error', reject)
    socket.once('close', () => resolve(text))
  })
}
