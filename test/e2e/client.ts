/**
 * A few lines of HTTP client, as a script of a user would write them with fetch. Every answer is
 * checked against the gateway's OpenAPI document (conformance.ts): an undocumented one throws.
 */
import { checkAnswer } from './conformance.js'

export interface Reply {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (throws when it is not JSON). */
  json<T = Record<string, unknown>>(): T
}

export interface CallOptions {
  headers?: Record<string, string>
  /** An object is sent as JSON; a string or Buffer as is. */
  body?: unknown
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
  let body: string | Buffer | undefined
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) })
  const text = await res.text()
  await checkAnswer(base, method, path, { status: res.status, headers: res.headers, text })
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  }
}

/** Credentials of each method as headers. */
export const apiKey = (key: string): Record<string, string> => ({ 'x-api-token': key })
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })

/**
 * Polls a discovery job until it is done; fails on error or after `tries`. `seen` lists the
 * states the polls saw before the end.
 */
export async function waitForJob(base: string, jobId: string, headers: Record<string, string>, tries = 600): Promise<{ job: Record<string, unknown>; seen: string[] }> {
  const seen: string[] = []
  for (let i = 0; i < tries; i++) {
    const r = await call(base, 'GET', `/api/jobs/${jobId}`, { headers })
    if (r.status !== 200) throw new Error(`GET /api/jobs/${jobId}: ${r.status} ${r.text}`)
    const job = r.json()
    if (job.isDone === true) return { job, seen }
    seen.push(String(job.status))
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`job ${jobId} not done after ${tries} polls`)
}

/** Logs in and returns the token pair; throws unless 200. */
export async function login(base: string, username: string, password: string): Promise<{ accessToken: string; refreshToken: string }> {
  const r = await call(base, 'POST', '/api/auth/login', { body: { username, password } })
  if (r.status !== 200) throw new Error(`login of ${username}: ${r.status} ${r.text}`)
  return r.json()
}

/** Creates an API key with `scope` for the session's user; returns the key string. */
export async function newApiKey(base: string, accessToken: string, scope: string[]): Promise<string> {
  const r = await call(base, 'POST', '/api/api-tokens', { headers: bearer(accessToken), body: { description: `test ${scope.join('+')}`, scope } })
  if (r.status !== 201) throw new Error(`API key: ${r.status} ${r.text}`)
  return r.json<{ token: string }>().token
}

/** Discovers the small "lab" network and waits for it; returns the snapshot id. */
export async function discoverLab(base: string, headers: Record<string, string>): Promise<string> {
  const r = await call(base, 'POST', '/api/snapshots', { headers, body: { profile: 'lab' } })
  if (r.status !== 201) throw new Error(`discovery: ${r.status} ${r.text}`)
  const { id, jobId } = r.json<{ id: string; jobId: string }>()
  const { job } = await waitForJob(base, jobId, headers)
  if (job.status !== 'done') throw new Error(`discovery ended ${JSON.stringify(job)}`)
  return id
}
