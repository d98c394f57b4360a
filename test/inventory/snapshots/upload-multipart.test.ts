/**
 * A snapshot file uploaded as the Python SDK's snapshot_upload sends it: a multipart/form-data
 * body whose part "file" holds it. A wrong file is a 422 the client reads while it is still
 * sending, never a connection closed under it (the SDK reported "Broken pipe").
 */
import t from 'tap'
import { request } from 'node:http'
import { freshDb } from '../../helpers/db.js'
import { asVersion, startApp } from '../app.js'

const BOUNDARY = 'a3f9c0de5b7e4f0d9c8b7a6f'

function formHead(filename: string): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfrom a form\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/x-tar\r\n\r\n`
  )
}

t.test('snapshot upload as a form', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const id = await api.discover({ profile: 'lab', seed: 3 })
  const download = await api.call('GET', `snapshots/${id}/download`)
  t.equal(download.status, 200)

  const body = `${formHead('snap.ndjson')}${download.text}\r\n--${BOUNDARY}--\r\n`
  const up = await api.call('POST', 'snapshots/upload', body, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` })
  t.equal(up.status, 201, up.text.slice(0, 300))
  if (up.status !== 201) return
  const imported = (up.body as { id: string }).id
  await api.waitJob((up.body as { jobId: string }).jobId)
  const count = async (snapshot: string) => ((await api.call('POST', 'tables/inventory/interfaces', { snapshot, columns: ['id'], pagination: { limit: 1 } })).body as { _meta: { count: number } })._meta.count
  t.equal(await count(imported), await count(id), 'the form\'s file is the snapshot')

  const noFile = await api.call('POST', 'snapshots/upload', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` })
  t.equal(noFile.status, 422)
  t.match(noFile.body, { code: 'API_INVALID_INPUT', errors: [{ message: /no file part/ }] })

  // A wrong file (a tar archive, not a netinv-snapshot file): the answer comes while the client
  // is still sending, and the client can send the rest and read it.
  const answer = await new Promise<{ status: number; body: string; sentAfter: number; error: Error | null }>((resolve) => {
    let error: Error | null = null
    let sentAfter = 0
    const req = request(`${api.url}/api/snapshots/upload`, {
      method: 'POST',
      headers: { ...asVersion(1, 'path'), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'transfer-encoding': 'chunked' },
    })
    req.on('error', (e) => (error = e))
    req.write(formHead('snapshot.tar'))
    req.write(`snapshot.ndjson${'\0'.repeat(100)}0000644\0ustar\0\n`)
    req.write(Buffer.alloc(4096, 'ustar\0'))
    req.on('response', (res) => {
      // the client goes on sending, as a client that reads its answer only at the end does
      const chunk = Buffer.alloc(64 * 1024, 'x')
      for (let i = 0; i < 16; i++) {
        req.write(chunk)
        sentAfter += chunk.length
      }
      req.end(`\r\n--${BOUNDARY}--\r\n`)
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => setImmediate(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), sentAfter, error })))
    })
  })
  t.equal(answer.status, 422, 'a wrong file is a 422')
  t.match(JSON.parse(answer.body), { code: 'API_INVALID_INPUT' })
  t.ok(answer.sentAfter > 0, 'the client sent more after the answer')
  t.equal(answer.error, null, 'and met no broken pipe or reset')
})
