/**
 * The interface's one way to the API: same origin, the session cookies the API sets at login,
 * and the header X-Requested-With on every request (the gateway refuses a cookie-authenticated
 * change without it: docs/authentication.md).
 *
 * An expired access token (401 API_EXPIRED_ACCESS_TOKEN, or no token at all once its cookie
 * expired) is renewed with the refresh-token cookie (POST auth/token, which rotates it), shortly
 * before it expires or when a request meets the 401. Renewals are single-flight across every tab
 * of the browser: a Web Lock lets one tab at a time renew, and a tab that waited for it first sends
 * its request once more, with the cookie another tab may have renewed meanwhile, so that no
 * refresh token is spent twice (the API would take that as a stolen token and revoke the session). */

export interface ErrorBody {
  code?: string
  message?: string
  detail?: string
  errors?: Array<{ message: string; path?: string }>
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(explain(status, body))
  }
  get code(): string | undefined {
    return this.body.code
  }
}

function explain(status: number, body: ErrorBody): string {
  const parts = [body.message ?? `HTTP ${status}`]
  if (body.detail) parts.push(body.detail)
  for (const e of body.errors ?? []) if (e.message !== body.message) parts.push(e.message)
  if (status === 403 && body.code === 'API_INSUFFICIENT_RIGHTS') parts.push('Your account lacks the scope this needs; ask a user with scope "team".')
  return parts.join(': ')
}

const EXPIRES = 'netinv.accessExpires'
const SESSION = 'netinv.session'
const BASE_HEADERS = { 'x-requested-with': 'netinv-web' }
/** Renew this long before the access token expires, so that requests rarely meet a 401. */
const EARLY_MS = 15_000

let sessionLost: () => void = () => {}
/** Called when the session cannot be renewed: the app shows the login page. */
export function onSessionLost(f: () => void): void {
  sessionLost = () => {
    clearSession()
    f()
  }
}

/** True when this browser holds a session (set at login, cleared at logout or when it is lost). */
export function hasSession(): boolean {
  return localStorage.getItem(SESSION) === '1'
}

export function clearSession(): void {
  localStorage.removeItem(SESSION)
  localStorage.removeItem(EXPIRES)
}

/** Keeps what the page may know of a login or renewal: when its access token expires (never the token). */
export function noteTokens(body: { accessToken?: string }): void {
  let expires = Date.now() + 60_000
  try {
    const payload = body.accessToken?.split('.')[1]
    if (payload) {
      const claims = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { exp?: number }
      if (typeof claims.exp === 'number') expires = claims.exp * 1000
    }
  } catch {
    // an opaque token: renew after a minute
  }
  localStorage.setItem(SESSION, '1')
  localStorage.setItem(EXPIRES, String(expires))
}

function expiresSoon(): boolean {
  return Number(localStorage.getItem(EXPIRES) ?? '0') - EARLY_MS < Date.now()
}

/** Runs `f` while no other tab of this browser runs one (a Web Lock); alone where there are none. */
function exclusive<T>(f: () => Promise<T>): Promise<T> {
  if ('locks' in navigator && navigator.locks) return navigator.locks.request('netinv-token-renewal', f)
  return f()
}

/** POST auth/token with the refresh-token cookie (rotated by the answer); false when refused. */
async function refreshNow(): Promise<boolean> {
  const r = await fetch('/api/auth/token', { method: 'POST', headers: { ...BASE_HEADERS, 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' })
  if (!r.ok) return false
  noteTokens((await r.json()) as { accessToken?: string })
  return true
}

let renewing: Promise<boolean> | null = null

/** Renews the session shortly before the access token expires (one renewal at a time in this tab). */
function renewEarly(): Promise<boolean> {
  renewing ??= exclusive(async () => (expiresSoon() ? refreshNow() : true)).finally(() => {
    renewing = null
  })
  return renewing
}

async function renewable(r: Response): Promise<boolean> {
  if (r.status !== 401) return false
  const code = (await errorBody(r.clone())).code
  return code === 'API_EXPIRED_ACCESS_TOKEN' || code === 'API_UNAUTHORIZED' || code === 'API_INVALID_ACCESS_TOKEN'
}

/**
 * A request that met 401 with an expired token: under the lock, sent once more first (another tab
 * may have renewed meanwhile: the cookies are shared, and the new one goes with it), and only if
 * that meets 401 again renewed here, then sent a last time. A 401 means the request was not carried
 * out, so sending it again repeats nothing.
 */
function afterRenewal(again: () => Promise<Response>): Promise<Response> {
  return exclusive(async () => {
    const second = await again()
    if (!(await renewable(second)) || !(await refreshNow())) return second
    return again()
  })
}

export interface RequestOptions {
  accept?: string
  /** The content type of a Blob body (JSON bodies are application/json). */
  contentType?: string
  /** No renewal and no "session lost" on 401 (login, EULA, the first check of the session). */
  anonymous?: boolean
}

/** Sends a request; resolves the Response of a 2xx answer, throws ApiFailure otherwise. */
export async function send(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...BASE_HEADERS, accept: options.accept ?? 'application/json' }
  // a file (a snapshot upload) goes as it is, anything else as JSON
  const raw = body instanceof Blob
  if (body !== undefined) headers['content-type'] = raw ? (options.contentType ?? 'application/octet-stream') : 'application/json'
  const init: RequestInit = { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: raw ? body : JSON.stringify(body) } : {}) }
  if (!options.anonymous && hasSession() && expiresSoon() && !(await renewEarly())) {
    sessionLost()
    throw new ApiFailure(401, { code: 'API_UNAUTHORIZED', message: 'Your session ended: log in again' })
  }
  const url = `/api/${path}`
  let r = await fetch(url, init)
  if (!options.anonymous && (await renewable(r))) {
    r = await afterRenewal(() => fetch(url, init))
    if (r.status === 401) {
      sessionLost()
      throw new ApiFailure(401, await errorBody(r))
    }
  }
  if (!r.ok) throw new ApiFailure(r.status, await errorBody(r))
  return r
}

async function errorBody(r: Response): Promise<ErrorBody> {
  const text = await r.text()
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed !== null && typeof parsed === 'object' ? (parsed as ErrorBody) : { message: text }
  } catch {
    return { message: text.trim() || `HTTP ${r.status}` }
  }
}

export async function getJson<T>(path: string, options?: RequestOptions): Promise<T> {
  return (await send('GET', path, undefined, options)).json() as Promise<T>
}

export async function postJson<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
  return (await send('POST', path, body, options)).json() as Promise<T>
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await send(method, path, body)
  const text = await r.text()
  return (text === '' ? {} : JSON.parse(text)) as T
}

