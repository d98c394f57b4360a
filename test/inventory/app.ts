/** A real inventory app behind http.createServer on port 0, and a client that speaks to it. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compileConfig } from '../../src/shared/config/index.js'
import type { Db } from '../../src/shared/db/index.js'
import { silentLogger, type Logger } from '../../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal, type Principal } from '../../src/shared/principal.js'
import { createInventoryApp } from '../../src/inventory/app.js'
import { matchEndpoint } from '../../src/shared/manifest.js'
import { migrateInventory } from '../../src/inventory/migrations/index.js'
import { backgroundKeeping } from '../../src/inventory/query/keeping.js'

export const SECRET = 'test-internal-secret-0123456789'

export const ALICE: Principal = { id: 'u1', username: 'alice', scopes: ['read', 'write', 'settings'], isAdmin: false, method: 'apiKey' }

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface Reply {
  status: number
  headers: Headers
  body: unknown
  text: string
}

export interface Client {
  url: string
  /** Stops the app (background jobs first), as a shutdown does. */
  close(): Promise<void>
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>
  /**
   * Starts a discovery and waits until its job is done and its comparison with the previous
   * snapshot is kept (in the background, `query/keeping.ts`); returns the snapshot id.
   */
  discover(body?: Record<string, unknown>): Promise<string>
  waitJob(jobId: string): Promise<Record<string, unknown>>
}

/** The internal header of a request the gateway forwards at `apiVersion` from `generation` (for `call`'s headers). */
export function asVersion(apiVersion: number, generation: 'header' | 'original' | 'path' = 'header'): Record<string, string> {
  return { [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: encodePrincipal(ALICE), apiVersion, generation }) }
}

export async function startApp(t: Teardown, db: Db, raw: Record<string, unknown> = {}, deps: { credentialKey?: Buffer; log?: Logger } = {}): Promise<Client> {
  await migrateInventory(db)
  const app = await createInventoryApp({ db, config: compileConfig(raw), log: deps.log ?? silentLogger(), internalSecret: SECRET, ...(deps.credentialKey ? { credentialKey: deps.credentialKey } : {}) })
  const server = createServer(app.handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await app.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    })())
  t.teardown(close)
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const call: Client['call'] = async (method, path, body, headers = {}) => {
    // as the gateway forwards a header-generation request without X-API-Version: the default version
    const apiVersion = matchEndpoint(path.split('?')[0]!)?.endpoint.defaultVersion ?? 1
    const init: RequestInit = {
      method,
      headers: { [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: encodePrincipal(ALICE), apiVersion, generation: 'header' }), ...headers },
    }
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
    }
    const res = await fetch(`${url}/api/${path}`, init)
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // not JSON (CSV, NDJSON or empty): the caller reads `text`
    }
    return { status: res.status, headers: res.headers, body: parsed, text }
  }
  const waitJob = async (jobId: string) => {
    for (let i = 0; i < 6000; i++) {
      const r = await call('GET', `jobs/${jobId}`)
      const job = r.body as Record<string, unknown>
      if (job.isDone) return job
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`job ${jobId} did not finish`)
  }
  return {
    url,
    close,
    call,
    waitJob,
    async discover(body = {}) {
      const r = await call('POST', 'snapshots', body)
      if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
      const { id, jobId } = r.body as { id: string; jobId: string }
      const job = await waitJob(jobId)
      if (job.status !== 'done') throw new Error(`discovery failed: ${JSON.stringify(job)}`)
      await backgroundKeeping(db)
      return id
    },
  }
}
