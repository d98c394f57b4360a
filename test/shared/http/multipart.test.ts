/**
 * The file part of a multipart/form-data body, read as it arrives: whatever the chunking, the
 * bytes of the file and nothing else; a body that is not a form with a file is a 422.
 */
import t from 'tap'
import fc from 'fast-check'
import { ApiError } from '../../../src/shared/errors.js'
import { multipartBoundary, multipartFile } from '../../../src/shared/http/multipart.js'

const BOUNDARY = '----formdata-boundary-7f3a'

function form(parts: Array<{ headers: string; body: string }>, boundary = BOUNDARY): Buffer {
  const text = parts.map((p) => `--${boundary}\r\n${p.headers}\r\n\r\n${p.body}\r\n`).join('') + `--${boundary}--\r\n`
  return Buffer.from(`preamble\r\n${text}`)
}

async function* chunked(body: Buffer, sizes: number[]): AsyncGenerator<Buffer> {
  let at = 0
  for (let i = 0; at < body.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!)
    yield body.subarray(at, at + size)
    at += size
  }
}

async function read(body: AsyncIterable<Buffer>, boundary = BOUNDARY): Promise<string> {
  const out: Buffer[] = []
  for await (const chunk of multipartFile(body, boundary)) out.push(chunk)
  return Buffer.concat(out).toString('utf8')
}

const FILE = '{"format":"netinv-snapshot"}\r\n--not-the-boundary\n{"eof":true}\n'

t.test('the boundary of a form content type', async (t) => {
  t.equal(multipartBoundary(`multipart/form-data; boundary=${BOUNDARY}`), BOUNDARY)
  t.equal(multipartBoundary('multipart/form-data; boundary="a b"'), 'a b')
  t.equal(multipartBoundary('application/x-ndjson'), undefined)
  t.equal(multipartBoundary(undefined), undefined)
  t.throws(() => multipartBoundary('multipart/form-data'), { code: 'API_INVALID_INPUT' })
})

t.test('the file part, whatever the chunks: other fields skipped', async (t) => {
  const body = form([
    { headers: 'Content-Disposition: form-data; name="note"', body: 'a note' },
    { headers: 'Content-Disposition: form-data; name="file"; filename="snap.ndjson"\r\nContent-Type: application/x-tar', body: FILE },
    { headers: 'Content-Disposition: form-data; name="after"', body: 'x' },
  ])
  t.equal(await read(chunked(body, [body.length])), FILE, 'one chunk')
  t.equal(await read(chunked(body, [1])), FILE, 'byte by byte')
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }), async (sizes) => {
      t.equal(await read(chunked(body, sizes)), FILE)
    }),
    { numRuns: 50 },
  )
})

t.test('what is no form with a file is a 422', async (t) => {
  const refused = async (body: Buffer, message: RegExp) => {
    const err = await read(chunked(body, [7])).catch((e: unknown) => e)
    t.ok(err instanceof ApiError && err.code === 'API_INVALID_INPUT', String(message))
    t.match((err as ApiError).errors?.[0]?.message, message)
  }
  await refused(form([{ headers: 'Content-Disposition: form-data; name="note"', body: 'x' }]), /no file part/)
  await refused(Buffer.from('no boundary at all'), /no opening boundary/)
  await refused(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n\r\nhalf a file`), /no closing boundary/)
})
