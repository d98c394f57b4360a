/**
 * JSON bodies with text no stored string can hold (U+0000, unpaired surrogates), bodies that are
 * not UTF-8 and charsets other than UTF-8: refused at the door, before any handler or database
 * sees them, each problem named with its path.
 */
import t from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { silentLogger } from '../../../src/shared/log.js'
import { readJson, sendError, sendJson } from '../../../src/shared/http/index.js'
import { unstorableText } from '../../../src/shared/http/json-text.js'

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
  t.same(unstorableText('{"a":"\\ud83d\\ude00 \\u0041"}', { a: '😀 A' }), [], 'a surrogate pair and other escapes are fine')
  t.same(unstorableText('{"a":"x"}', { a: '\0' }), [], 'text without such an escape is not walked')
})

t.test('readJson: 422 for such text, 400 for bytes that are not UTF-8, 415 for another charset', async (t) => {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    readJson(req, 1 << 20).then(
      (v) => sendJson(res, 200, { got: v }),
      (err: unknown) => sendError(res, err, silentLogger()),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
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
