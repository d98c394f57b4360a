/**
 * GET auth/sso/:provider/start and GET auth/sso/:provider/callback: single sign-on with OpenID
 * Connect (auth/sso/logins.ts). `start` answers 302 to the provider with a new state, and sets the
 * `ssoState` cookie (HttpOnly, SameSite=Lax, Path=/api/auth/sso/) binding the login to this
 * browser; `callback` checks the provider's answer and issues netinv's own session exactly as
 * POST auth/login does (the same tokens and cookies), then answers 302 to `/` (the web
 * interface). Every login through a provider, success or failure, is in the audit trail
 * (`auth.login`, method `sso`).
 */
import { isSecureRequest, readCookie, setCookie } from '../auth/cookies.js'
import { reasonOf, recordOf } from '../audit/index.js'
import type { LocalHandler, RequestContext } from '../context.js'
import { tokenCookies } from './auth.js'
import type { HandlerDeps } from './deps.js'

export const SSO_STATE_COOKIE = 'ssoState'
const SSO_COOKIE_PATH = '/api/auth/sso/'

function stateCookie(ctx: RequestContext, value: string, maxAgeSeconds: number): string {
  return setCookie(SSO_STATE_COOKIE, value, { path: SSO_COOKIE_PATH, maxAgeSeconds, secure: isSecureRequest(ctx.req), sameSite: 'Lax' })
}

export function ssoHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
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
    let result: Awaited<ReturnType<typeof deps.sessions.open>>
    try {
      const user = await deps.sso.finish(name, new URLSearchParams(ctx.search), readCookie(ctx.req.headers.cookie, SSO_STATE_COOKIE) ?? null)
      result = await deps.sessions.open(user, 'sso')
    } catch (err) {
      recordOf(deps.audit, ctx, { action: 'auth.login', target: name, outcome: 'failure', reason: `provider ${name}: ${reasonOf(err)}`, actor: { id: null, name: `sso:${name}`, method: 'sso' } })
      throw err
    }
    recordOf(deps.audit, ctx, { action: 'auth.login', target: result.username, reason: `provider ${name}`, actor: { id: result.id, name: result.username, method: 'sso' } })
    ctx.res.writeHead(302, { ...ctx.responseHeaders, location: '/', 'cache-control': 'no-store', 'set-cookie': [stateCookie(ctx, '', 0), ...tokenCookies(ctx, deps, result)], 'content-length': '0' })
    ctx.res.end()
  }

  return { 'GET auth/sso/:provider/start': start, 'GET auth/sso/:provider/callback': callback }
}
