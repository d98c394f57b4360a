/**
 * SIGTERM to a busy `netinv serve` with CSV downloads in flight (issue 30, item 11): list requests
 * and table queries keep coming on kept-alive connections, two CSV exports of a discovered network
 * are being read (slowly, as a browser saving a file over a modest link would), and SIGTERM comes.
 * Every request that reached the server gets its whole answer, the downloads end complete (their
 * row count trailer present and equal to the rows received), and the process exits within the grace.
 */
import t from 'tap'
import { request, Agent, type IncomingMessage } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dirsEnv, serve, tempDirs } from '../e2e/process.js'
import { apiKey, discoverLab, login, newApiKey } from '../e2e/client.js'

const GRACE_MS = 6000
const PASSWORD = 'drain-downloads-password-1'
const CONNECTIONS = 24
const DOWNLOADS = 2

interface Counts {
  answered: Record<string, number>
  dropped: Record<string, number>
  refused: number
}

const bump = (counts: Record<string, number>, key: string): void => void (counts[key] = (counts[key] ?? 0) + 1)

function send(url: string, key: string, n: number, agent: Agent, out: Counts): Promise<boolean> {
  const query = JSON.stringify({ snapshot: '$last', columns: ['id', 'hostname', 'siteName'], pagination: { start: 0, limit: 50 } })
  const [method, path, body] = n % 2 === 0 ? ['GET', '/api/snapshots'] : ['POST', '/api/tables/inventory/devices', query]
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method, agent, headers: { ...apiKey(key), ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      res.resume()
      res.on('end', () => {
        bump(out.answered, String(res.statusCode))
        resolve(true)
      })
      res.on('error', (err: NodeJS.ErrnoException) => {
        bump(out.dropped, `${err.code ?? ''} ${err.message} (mid-answer)`)
        resolve(true)
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      // a new connection reset before any answer was never accepted by the process (the kernel's
      // handshake between the drain's last look at the listen queue and the close: drain.ts)
      const neverAccepted = err.syscall === 'connect' || (!req.reusedSocket && err.code === 'ECONNRESET')
      if (neverAccepted) out.refused++
      else bump(out.dropped, `${err.code ?? ''} ${err.message}`)
      resolve(!neverAccepted)
    })
    req.end(body)
  })
}

interface Download {
  status?: number
  bytes: number
  lines: number
  trailer?: string
  error?: string
}

/** A CSV export read at about `bytesPerSecond`; `started` once its headers have come. */
function download(url: string, key: string, columns: string[], bytesPerSecond: number, started: () => void): Promise<Download> {
  const body = JSON.stringify({ snapshot: '$last', columns })
  const got: Download = { bytes: 0, lines: 0 }
  return new Promise((resolve) => {
    const req = request(`${url}/api/tables/inventory/interfaces`, { method: 'POST', agent: false, headers: { ...apiKey(key), 'content-type': 'application/json', accept: 'text/csv' } }, (res: IncomingMessage) => {
      got.status = res.statusCode
      started()
      res.on('data', (chunk: Buffer) => {
        got.bytes += chunk.length
        for (const byte of chunk) if (byte === 10) got.lines++
        res.pause()
        setTimeout(() => res.resume(), (chunk.length / bytesPerSecond) * 1000)
      })
      res.on('end', () => {
        const trailer = res.trailers['x-row-count']
        if (trailer !== undefined) got.trailer = trailer
        resolve(got)
      })
      res.on('error', (err: NodeJS.ErrnoException) => {
        got.error = `${err.code ?? ''} ${err.message}`
        resolve(got)
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      got.error = `${err.code ?? ''} ${err.message}`
      resolve(got)
    })
    req.end(body)
  })
}

t.test('SIGTERM to netinv serve with list requests, table queries and CSV downloads in flight: every one completes, exit within the grace', async (t) => {
  const dirs = tempDirs(t)
  writeFileSync(join(dirs.configDir, 'api.json'), JSON.stringify({ server: { shutdownGraceMs: GRACE_MS }, rateLimit: { enabled: false }, query: { maxConcurrentPerPrincipal: 64 } }))
  const served = await serve(t, { ...dirsEnv(dirs), ADMIN_PASSWORD: PASSWORD })
  const { url, child } = served
  const { accessToken } = await login(url, 'admin', PASSWORD)
  const key = await newApiKey(url, accessToken, ['read', 'write'])
  await discoverLab(url, apiKey(key))
  // Every column: an export larger than the socket buffers between the database and the reader,
  // so that the server is still writing it when SIGTERM comes. Its size, to read it within half the grace.
  const described = await fetch(`${url}/api/tables/inventory/interfaces/description`, { headers: apiKey(key) })
  const columns = ((await described.json()) as { columns: Array<{ name: string }> }).columns.map((c) => c.name)
  const whole = await download(url, key, columns, Infinity, () => undefined)
  t.equal(whole.status, 200, `a whole export: ${whole.bytes} bytes, ${whole.lines} lines`)

  const out: Counts = { answered: {}, dropped: {}, refused: 0 }
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  t.teardown(() => agent.destroy())
  let stopping = false
  let n = 0
  const workers = Array.from({ length: CONNECTIONS }, async () => {
    while (!stopping && (await send(url, key, n++, agent, out)));
  })
  let headers = 0
  let allStarted!: () => void
  const started = new Promise<void>((resolve) => (allStarted = resolve))
  const downloads = Array.from({ length: DOWNLOADS }, () => download(url, key, columns, whole.bytes / (GRACE_MS / 2000), () => ++headers === DOWNLOADS && allStarted()))
  await started
  await new Promise((r) => setTimeout(r, 300))
  const signalled = performance.now()
  child.kill('SIGTERM')
  const code = await served.exited
  const tookMs = performance.now() - signalled
  stopping = true
  await Promise.all(workers)
  const got = await Promise.all(downloads)

  t.equal(code, 0, 'exit code 0')
  t.ok(tookMs < GRACE_MS + 2000, `exited ${Math.round(tookMs)} ms after SIGTERM (grace ${GRACE_MS} ms)`)
  t.same(out.dropped, {}, `no list request or table query dropped (answered ${JSON.stringify(out.answered)}, refused connections ${out.refused})`)
  for (const [i, d] of got.entries()) {
    t.equal(d.status, 200, `download ${i}: 200`)
    t.equal(d.error, undefined, `download ${i}: no transport error`)
    t.equal(d.bytes, whole.bytes, `download ${i}: every byte (${d.bytes} of ${whole.bytes})`)
    t.equal(d.trailer, String(whole.lines - 1), `download ${i}: the row count trailer says what came`)
  }
})
