/**
 * The HTTP side of the command-line client: one base address, one way of authenticating (an API
 * key in X-API-Token, or the stored login as a Bearer token), and the spec's client flow for the
 * login: on 401 API_EXPIRED_ACCESS_TOKEN, `POST auth/token` with the stored refresh token, keep the
 * new pair (the refresh token rotates), and send the request again once.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { RELEASE_VERSION } from '../shared/product.js'
import { readSessionFile, saveSession, sessionPath, type Session } from './session.js'

export const DEFAULT_URL = 'http://localhost:8080'

/** An answer of the API that is not a success, or an API that cannot be reached: exit status 1. */
/** Whether a 401 says the access token expired (a session renews it then), read from a copy of the answer. */
async function accessExpired(res: Response): Promise<boolean> {
  const code = await res
    .clone()
    .json()
    .then(
      (b) => (b as { code?: unknown } | null)?.code,
      () => undefined,
    )
  return code === 'API_EXPIRED_ACCESS_TOKEN'
}

export class ClientError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** The `errors[].message` of a 422. */
    readonly details: readonly string[] = [],
  ) {
    super(message)
    this.name = 'ClientError'
  }
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown
  accept?: string
  /** Aborts the request (and the reading of its answer); the abort is thrown as it is. */
  signal?: AbortSignal
}

/** `http://host:8080`, `http://host:8080/` and `http://host:8080/api` all mean the same API. */
export function normalizeUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new ClientError(`"${url}" is not a URL (NETINV_URL or --url, e.g. http://localhost:8080)`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ClientError(`"${url}" is not an http(s) URL`)
  return `${u.origin}${u.pathname.replace(/\/+$/, '').replace(/\/api$/, '')}`
}

/** The error body of a failed answer as one message (and the validation messages of a 422). */
export async function errorOf(res: Response): Promise<ClientError> {
  const text = await res.text()
  let body: { code?: unknown; message?: unknown; errors?: unknown } | undefined
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    body = undefined
  }
  const code = typeof body?.code === 'string' ? body.code : undefined
  const details = Array.isArray(body?.errors) ? body.errors.map((e: { message?: unknown }) => String(e?.message ?? JSON.stringify(e))) : []
  const message = typeof body?.message === 'string' ? body.message : text.trim() || res.statusText
  return new ClientError(`${message} (HTTP ${res.status}${code ? ` ${code}` : ''})`, res.status, code, details)
}

type Auth = { kind: 'apiKey'; key: string } | { kind: 'session'; file: string; session: Session } | { kind: 'none' }

export class ApiClient {
  constructor(
    readonly url: string,
    private auth: Auth,
  ) {}

  get username(): string | undefined {
    return this.auth.kind === 'session' ? this.auth.session.username : undefined
  }

  /** A request to `/api/<path>`; never throws for an HTTP status (see `ok`). */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    let res = await this.send(method, path, options)
    if (res.status === 401 && this.auth.kind === 'session') {
      if (await accessExpired(res)) {
        await res.body?.cancel()
        await this.refresh()
        res = await this.send(method, path, options)
      }
    }
    return res
  }

  /** The answer when it is a success; its error body as a ClientError otherwise. */
  async ok(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const res = await this.request(method, path, options)
    if (!res.ok) throw await errorOf(res)
    return res
  }

  /**
   * `ok` for an answer read as a node stream: fetch shows no trailer fields, and a CSV export ends
   * with its row count in one (see src/client/csv-copy.ts).
   */
  async okStream(method: string, path: string, options: RequestOptions = {}): Promise<IncomingMessage> {
    for (let renewed = false; ; renewed = true) {
      const res = await this.sendStream(method, path, options)
      const status = res.statusCode ?? 0
      if (status >= 200 && status < 300) return res
      const chunks: Buffer[] = []
      for await (const chunk of res) chunks.push(chunk as Buffer)
      const answer = new Response(Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '' })
      if (status === 401 && !renewed && this.auth.kind === 'session') {
        if (await accessExpired(answer)) {
          await this.refresh()
          continue
        }
      }
      throw await errorOf(answer)
    }
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.ok(method, path, body === undefined ? {} : { body })
    return (await res.json()) as T
  }

  private headers(options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': `netinv-cli/${RELEASE_VERSION}`, accept: options.accept ?? 'application/json' }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    if (this.auth.kind === 'apiKey') headers['x-api-token'] = this.auth.key
    if (this.auth.kind === 'session') headers.authorization = `Bearer ${this.auth.session.accessToken}`
    return headers
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const init: RequestInit = { method, headers: this.headers(options) }
    if (options.body !== undefined) init.body = JSON.stringify(options.body)
    if (options.signal) init.signal = options.signal
    try {
      return await fetch(`${this.url}/api/${path}`, init)
    } catch (err) {
      if (options.signal?.aborted) throw err
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      throw new ClientError(`cannot reach ${this.url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`)
    }
  }

  private sendStream(method: string, path: string, options: RequestOptions): Promise<IncomingMessage> {
    const url = new URL(`${this.url}/api/${path}`)
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    const headers: Record<string, string | number> = this.headers(options)
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body)
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, ...(options.signal ? { signal: options.signal } : {}) }, resolve)
      req.on('error', (err: Error & { code?: string }) => {
        if (options.signal?.aborted) reject(err)
        else reject(new ClientError(`cannot reach ${this.url}: ${err.code ?? err.message}`))
      })
      req.end(body)
    })
  }

  /** The spec's renewal: the stored refresh token for a new pair, stored at once. */
  private async refresh(): Promise<void> {
    if (this.auth.kind !== 'session') return
    const { file, session } = this.auth
    const res = await this.send('POST', 'auth/token', { body: { refreshToken: session.refreshToken } })
    if (!res.ok) {
      const err = await errorOf(res)
      if (err.status === 401) throw new ClientError(`the login of ${session.username} to ${this.url} has expired: run "netinv login" again`, 401, err.code)
      throw err
    }
    const pair = (await res.json()) as { accessToken: string; refreshToken?: string }
    // the original generation keeps the refresh token; 6.1 and later replace it
    const renewed: Session = { ...session, accessToken: pair.accessToken, refreshToken: pair.refreshToken ?? session.refreshToken, savedAt: Date.now() }
    saveSession(file, this.url, renewed)
    this.auth = { kind: 'session', file, session: renewed }
  }
}

export interface ConnectOptions {
  /** --url of the command line (wins over NETINV_URL). */
  url?: string
  env?: NodeJS.ProcessEnv
  /** Whether the command needs credentials (all but login). */
  authenticated?: boolean
}

/**
 * The client of a command: the address from --url, NETINV_URL, the last login or the default;
 * the credentials from NETINV_TOKEN, else the stored login to that address.
 */
export function connect(options: ConnectOptions = {}): ApiClient {
  const env = options.env ?? process.env
  const file = sessionPath(env)
  const stored = readSessionFile(file)
  const url = normalizeUrl(options.url ?? (env.NETINV_URL || stored.current || DEFAULT_URL))
  if (env.NETINV_TOKEN) return new ApiClient(url, { kind: 'apiKey', key: env.NETINV_TOKEN })
  const session = stored.sessions[url]
  if (session) return new ApiClient(url, { kind: 'session', file, session })
  if (options.authenticated === false) return new ApiClient(url, { kind: 'none' })
  throw new ClientError(`not logged in to ${url}: run "netinv login" or set NETINV_TOKEN to an API key`)
}
