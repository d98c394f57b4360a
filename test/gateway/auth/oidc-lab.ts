/**
 * A real OpenID Connect provider for tests: oidc-provider (the npm package) in this process on a
 * loopback port, with its development login and consent pages, the device flow, refresh tokens
 * for clients allowed the grant, and accounts the test changes while it runs (groups, removal).
 * `browse` is a person's browser driven through the provider's own HTML forms with plain HTTP.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type ClientMetadata } from 'oidc-provider'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** Cookies of one user agent (by name; the test's hosts are all loopback). */
export class Jar {
  readonly cookies = new Map<string, string>()
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair?.indexOf('=') ?? -1
      if (!pair || eq < 0) continue
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

export interface Lab {
  issuer: string
  /** Groups by account id; an account missing here (or in `removed`) is unknown to the provider. */
  accounts: Map<string, string[]>
  /** While true, every request is answered 503 (the provider is down). */
  down: boolean
}

export interface LabOptions {
  clients: ClientMetadata[]
  deviceFlow?: boolean
}

/** Starts the provider; it stops at the end of the test. */
export async function startProvider(t: Teardown, options: LabOptions): Promise<Lab> {
  const lab: Lab = { issuer: '', accounts: new Map(), down: false }
  const made: { provider?: Provider } = {}
  const server: Server = createServer((req, res) => {
    if (!made.provider || lab.down) return void res.writeHead(503).end()
    void made.provider.callback()(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  lab.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  made.provider = new Provider(lab.issuer, {
    clients: options.clients,
    findAccount: (_ctx, id) => {
      const groups = lab.accounts.get(id)
      if (!groups) return undefined
      return { accountId: id, claims: () => ({ sub: `sub-${id}`, preferred_username: id, email: `${id}@corp.test`, groups: lab.accounts.get(id) ?? [] }) }
    },
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['cookie-signing-key-of-the-test-provider'] },
    // Clients allowed the refresh_token grant get one without asking for offline_access (as many
    // providers do).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: { devInteractions: { enabled: true }, deviceFlow: { enabled: options.deviceFlow ?? false } },
  })
  return lab
}

/** The `<input>`s of the first form of a page, by name (their value attributes). */
function formOf(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(html)
  if (!form) return null
  const action = /action="([^"]*)"/.exec(form[0])?.[1]
  if (action === undefined) return null
  const fields: Record<string, string> = {}
  for (const input of form[1]?.match(/<input\b[^>]*>/g) ?? []) {
    const name = /name="([^"]*)"/.exec(input)?.[1]
    if (name) fields[name] = /value="([^"]*)"/.exec(input)?.[1] ?? ''
  }
  return { action: action.replace(/&amp;/g, '&'), fields }
}

/**
 * A person's browser from `url` through the provider's pages: each form is submitted as the
 * person would (the login form with `username` and any password, consent, the device code
 * confirmation, or its abort when `abort`), redirects are followed, until the browser leaves for
 * an address starting with `until` (answered) or a page without a form remains (its text).
 */
export async function browse(url: string, username: string, options: { until?: string; jar?: Jar; abort?: boolean } = {}): Promise<{ left?: string; page?: string; jar: Jar }> {
  const jar = options.jar ?? new Jar()
  let aborted = false
  let answer: Response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } })
  for (let step = 0; step < 30; step++) {
    jar.take(answer)
    if (answer.status >= 300 && answer.status < 400) {
      url = new URL(answer.headers.get('location') ?? '', url).href
      if (options.until && url.startsWith(options.until)) return { left: url, jar }
      answer = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } })
      continue
    }
    const html = await answer.text()
    const form = formOf(html)
    // After an abort the provider shows its code form again, with what happened.
    if (!form || aborted) return { page: html, jar }
    if (answer.status !== 200) throw new Error(`provider page ${url}: ${answer.status} ${html.slice(0, 300)}`)
    const fields = { ...form.fields }
    if ('login' in fields) Object.assign(fields, { login: username, password: 'any' })
    if (options.abort && 'confirm' in fields) {
      delete fields.confirm
      fields.abort = 'yes'
      aborted = true
    }
    url = new URL(form.action, url).href
    answer = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
  }
  throw new Error('the provider never finished')
}
