/**
 * SIGTERM to a busy `netinv serve`: every request whose bytes reached the server gets an answer.
 *
 * Keep-alive connections carry steady requests (gateway-local, forwarded, table queries); then
 * the process is held still (SIGSTOP: whatever blocks it, a long statement or a paused VM) while
 * requests keep arriving on those connections and on new ones, SIGTERM comes, and the process
 * goes on (SIGCONT). A request may fail to connect (refused: nothing was sent, a client or load
 * balancer retries it elsewhere); a reset, a broken pipe or a connection closed without an answer
 * on a connection that had carried an answer means the server dropped a request it had received
 * (a new connection reset before any answer was never accepted: counted as refused).
 */
import t from 'tap'
import { request, Agent } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dirsEnv, serve, tempDirs } from '../e2e/process.js'
import { call } from '../e2e/client.js'

const GRACE_MS = 5000
const PASSWORD = 'drain-under-load-password-1'
const CONNECTIONS = 60
/** New connections opened (each with its request) while the process is held. */
const NEW_CONNECTIONS = 60
const QUERY = JSON.stringify({ snapshot: '$last', columns: ['id', 'hostname', 'siteName'], pagination: { start: 0, limit: 20 } })

interface Outcome {
  /** Complete answers, by status (and whether they closed the connection). */
  answered: Record<string, number>
  /** Requests dropped after they were sent, by error. */
  dropped: Record<string, number>
  /** Requests that found no connection (nothing sent). */
  refused: number
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1
}

/**
 * One request; its outcome counted in `out`; resolves false when it could not connect. `sent` is
 * called once the whole request has been handed to the kernel.
 */
function send(url: string, key: string, n: number, agent: Agent | false, out: Outcome, sent?: () => void): Promise<boolean> {
  const kind = n % 3
  const [method, path, body] = kind === 0 ? ['GET', '/api/version'] : kind === 1 ? ['GET', '/api/snapshots'] : ['POST', '/api/tables/inventory/devices', QUERY]
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method, agent, headers: { 'x-api-token': key, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      res.resume()
      res.on('end', () => {
        bump(out.answered, `${res.statusCode}${res.headers.connection === 'close' ? ' close' : ''}`)
        resolve(true)
      })
      res.on('error', (err: NodeJS.ErrnoException) => {
        bump(out.dropped, `${err.code ?? ''} ${err.message} (mid-answer)`)
        resolve(true)
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A new connection reset before any answer was never accepted by the process: the kernel
      // completed its handshake in the instant between the drain's last look at the listen queue
      // and the listener's close (drain.ts). Like a refused one, no request of it was received.
      const neverAccepted = err.syscall === 'connect' || (!req.reusedSocket && err.code === 'ECONNRESET')
      if (neverAccepted) out.refused++
      else bump(out.dropped, `${err.code ?? ''} ${err.message}`)
      resolve(!neverAccepted)
    })
    if (sent) req.once('finish', sent)
    req.end(body)
  })
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)

t.test('SIGTERM to netinv serve under load: no request it received is dropped, and it exits 0 within the grace', async (t) => {
  const dirs = tempDirs(t)
  writeFileSync(join(dirs.configDir, 'api.json'), JSON.stringify({ server: { shutdownGraceMs: GRACE_MS }, rateLimit: { enabled: false } }))
  const served = await serve(t, { ...dirsEnv(dirs), ADMIN_PASSWORD: PASSWORD })
  const { url, child } = served
  const login = await call(url, 'POST', '/api/auth/login', { body: { username: 'admin', password: PASSWORD } })
  const created = await call(url, 'POST', '/api/api-tokens', { headers: { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` }, body: { description: 'load', scope: ['read'] } })
  const key = created.json<{ token: string }>().token

  const out: Outcome = { answered: {}, dropped: {}, refused: 0 }
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  t.teardown(() => agent.destroy())
  let stopping = false
  let n = 0
  let warmed!: () => void
  const warm = new Promise<void>((resolve) => (warmed = resolve))
  // Steady load on every connection; a client refused a connection goes elsewhere.
  const workers = Array.from({ length: CONNECTIONS }, async () => {
    while (!stopping && (await send(url, key, n++, agent, out))) if (total(out.answered) >= 4 * CONNECTIONS) warmed()
  })
  await warm
  // The process is held while requests keep coming: on the kept-alive connections (one each,
  // sent once its previous answer came), and on new connections that wait in the listen queue.
  child.kill('SIGSTOP')
  const lateOut: Outcome = { answered: {}, dropped: {}, refused: 0 }
  let handed = 0
  let allHanded!: () => void
  const lateHanded = new Promise<void>((resolve) => (allHanded = resolve))
  const late = Array.from({ length: NEW_CONNECTIONS }, () => send(url, key, n++, false, lateOut, () => ++handed === NEW_CONNECTIONS && allHanded()))
  await lateHanded
  const signalled = performance.now()
  child.kill('SIGTERM')
  child.kill('SIGCONT')
  const code = await served.exited
  const tookMs = performance.now() - signalled
  stopping = true
  await Promise.all([...workers, ...late])

  t.equal(code, 0, 'exit code 0')
  t.ok(tookMs < GRACE_MS, `exited ${Math.round(tookMs)} ms after SIGTERM, within the ${GRACE_MS} ms grace`)
  t.same(out.dropped, {}, `no request dropped on kept-alive connections (answered ${JSON.stringify(out.answered)}, refused connections ${out.refused})`)
  t.same(lateOut.dropped, {}, 'no request dropped on the connections queued while the process was held')
  t.equal(total(lateOut.answered), NEW_CONNECTIONS, `each of them answered: ${JSON.stringify(lateOut.answered)}`)
})
