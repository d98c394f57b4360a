/** A few lines of HTTP client, as a script of a user would write them with fetch. */
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
