/**
 * Single sign-on with OpenID Connect (auth/sso/logins.ts).
 *
 * - GET auth/sso/:provider/start answers 302 to the provider with a new state, and sets the
 *   `ssoState` cookie (HttpOnly, SameSite=Lax, Path=/api/auth/sso/) binding the login to this
 *   browser.
 * - GET auth/sso/:provider/callback checks the provider's answer and issues netinv's own session
 *   exactly as POST auth/login does (the same tokens and cookies), then answers 302 to `/` (the
 *   web interface). A user who has not approved the EULA gets no session yet: 302 to
 *   `/#ssoEula=<ticket>`, where the web interface shows the EULA and posts the ticket back to
 *   POST auth/eula (auth/sso/eula-tickets.ts); the fragment never reaches a server or a Referer.
 * - POST auth/sso/:provider/device starts a device login (RFC 8628) for the command line: the
 *   gateway asks the provider (its client secret stays here) and answers the user code, the
 *   address to enter it at, and `deviceRequest`, which POST auth/sso/:provider/device/token
 *   polls with: 202 `{status: "pending", interval}` until the person has logged in at the
 *   provider, then the login result object of POST auth/login (no cookies: a command line's).
 * Every login through a provider, success or failure, is in the audit trail (`auth.login`, method
 * `sso`).
 */
import { isSecureRequest, readCookie, setCookie } from '../auth/cookies.js'
import type { SsoLogin } from '../auth/sso/logins.js'
import { reasonOf, recordOf } from '../audit/index.js'
import type { LocalHandler, RequestContext } from '../context.js'
import { tokenCookies } from './auth.js'
import { parseBody, validatorOf } from './body.js'
import { reply, type HandlerDeps } from './deps.js'
import { DevicePoll } from './schemas.js'

export const SSO_STATE_COOKIE = 'ssoState'
const SSO_COOKIE_PATH = '/api/auth/sso/'

function stateCookie(ctx: RequestContext, value: string, maxAgeSeconds: number): string {
  return setCookie(SSO_STATE_COOKIE, value, { path: SSO_COOKIE_PATH, maxAgeSeconds, secure: isSecureRequest(ctx.req), sameSite: 'Lax' })
}

export function ssoHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  const limit = deps.config.server.bodyLimitBytes
  const pollBody = validatorOf('POST auth/sso/:provider/device/token', DevicePoll)

  const failed = (ctx: RequestContext, name: string, err: unknown) =>
    recordOf(deps.audit, ctx, { action: 'auth.login', target: name, outcome: 'failure', reason: `provider ${name}: ${reasonOf(err)}`, actor: { id: null, name: `sso:${name}`, method: 'sso' } })

  /** netinv's session for a completed login; failures (the EULA above all) are recorded. */
  const open = async (ctx: RequestContext, name: string, login: SsoLogin) => {
    let result: Awaited<ReturnType<typeof deps.sessions.open>>
    try {
      result = await deps.sessions.open(login.user, 'sso', login.session)
    } catch (err) {
      failed(ctx, name, err)
      throw err
    }
    recordOf(deps.audit, ctx, { action: 'auth.login', target: result.username, reason: `provider ${name}`, actor: { id: result.id, name: result.username, method: 'sso' } })
    return result
  }

  const start: LocalHandler = async (ctx) => {
    const name = ctx.params?.provider ?? ''
    const { url, state } = await deps.sso.start(name)
    ctx.res.writeHead(302, { ...ctx.responseHeaders, location: url, 'cache-control': 'no-store', 'set-cookie': stateCookie(ctx, state, deps.config.sso.stateTtlSeconds), 'content-length': '0' })
    ctx.res.end()
  }

  const callback: LocalHandler = async (ctx) => {
    const name = ctx.params?.provider ?? ''
    // The state cookie is spent whatever the outcome.
    ctx.responseHeaders['set-cookie'] = stateCookie(ctx, '', 0)
    let login: SsoLogin
    try {
      login = await deps.sso.finish(name, new URLSearchParams(ctx.search), readCookie(ctx.req.headers.cookie, SSO_STATE_COOKIE) ?? null)
    } catch (err) {
      failed(ctx, name, err)
      throw err
    }
    if (!login.user.eulaApproved) {
      const ticket = await deps.sso.eulaTickets.issue(login)
      recordOf(deps.audit, ctx, { action: 'auth.login', target: login.user.username, outcome: 'failure', reason: `provider ${name}: API_MISSING_EULA_APPROVAL: EULA ticket issued`, actor: { id: login.user.id, name: login.user.username, method: 'sso' } })
      ctx.res.writeHead(302, { ...ctx.responseHeaders, location: `/#ssoEula=${ticket}`, 'cache-control': 'no-store', 'content-length': '0' })
      return void ctx.res.end()
    }
    const result = await open(ctx, name, login)
    ctx.res.writeHead(302, { ...ctx.responseHeaders, location: '/', 'cache-control': 'no-store', 'set-cookie': [stateCookie(ctx, '', 0), ...tokenCookies(ctx, deps, result)], 'content-length': '0' })
    ctx.res.end()
  }

  const deviceStart: LocalHandler = async (ctx) => {
    const name = ctx.params?.provider ?? ''
    try {
      reply(ctx, 200, await deps.sso.device.start(name), { 'cache-control': 'no-store' })
    } catch (err) {
      failed(ctx, name, err)
      throw err
    }
  }

  const devicePoll: LocalHandler = async (ctx) => {
    const name = ctx.params?.provider ?? ''
    const { deviceRequest } = await parseBody(ctx, limit, pollBody)
    let polled: Awaited<ReturnType<typeof deps.sso.device.poll>>
    try {
      polled = await deps.sso.device.poll(name, deviceRequest)
    } catch (err) {
      failed(ctx, name, err)
      throw err
    }
    if ('pending' in polled) return reply(ctx, 202, { status: 'pending', interval: polled.interval }, { 'cache-control': 'no-store' })
    const result = await open(ctx, name, polled)
    reply(ctx, 200, { accessToken: result.accessToken, refreshToken: result.refreshToken, eula: result.eula, scope: result.scope, id: result.id }, { 'cache-control': 'no-store' })
  }

  return {
    'GET auth/sso/:provider/start': start,
    'GET auth/sso/:provider/callback': callback,
    'POST auth/sso/:provider/device': deviceStart,
    'POST auth/sso/:provider/device/token': devicePoll,
  }
}
