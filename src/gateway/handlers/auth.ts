/**
 * auth/login, auth/token (POST refresh, DELETE revoke), auth/logout, auth/eula and auth/jwks.
 *
 * - Tokens come in the JSON body and as cookies: `accessToken` (Path=/) and `refreshToken`
 *   (Path=/api/auth/token), HttpOnly, SameSite=Strict, Secure over TLS.
 * - POST auth/token version 1 (original generation, path releases before 6.1) keeps the refresh
 *   token and restarts its idle timer, answering `{accessToken}`; version 2 rotates and answers
 *   the login result object.
 * - DELETE auth/token answers `{success: true}`; its errors are `text/plain` `Unauthorized` as
 *   the spec shows. It revokes the token's whole family (the login session).
 * - POST auth/logout revokes the refresh-token family of the caller's session (the `sid` of its
 *   access token, and the refreshToken cookie when sent), clears both cookies, `{success: true}`.
 * - POST auth/eula `{username, password, accept: true}` records the approval, `{success: true}`;
 *   `{ticket, accept: true}` (a single sign-on login's ticket, handlers/sso.ts) records it and
 *   opens that login's session: `{success: true}` with the login result and the token cookies.
 */
import type { ServerResponse } from 'node:http'
import { ApiError, invalidInput, toErrorResponse } from '../../shared/errors.js'
import { readCookie, isSecureRequest, setCookie, ACCESS_COOKIE_PATH, REFRESH_COOKIE_PATH } from '../auth/cookies.js'
import { ACCESS_COOKIE, REFRESH_COOKIE, readCredentials } from '../auth/credentials.js'
import { CSRF_MESSAGE, refreshLacksCsrfHeader } from '../auth/csrf.js'
import type { LoginResult } from '../auth/sessions.js'
import { reasonOf, recordOf } from '../audit/index.js'
import { clientOf, type LocalHandler, type RequestContext } from '../context.js'
import { parseBody, validatorOf } from './body.js'
import { reply, type HandlerDeps } from './deps.js'
import { Eula, Login, Refresh, Revoke } from './schemas.js'

export function tokenCookies(ctx: RequestContext, deps: HandlerDeps, result: { accessToken: string; refreshToken?: string }): string[] {
  const secure = isSecureRequest(ctx.req)
  const cookies = [setCookie(ACCESS_COOKIE, result.accessToken, { path: ACCESS_COOKIE_PATH, maxAgeSeconds: deps.config.app.accessToken.expiresIn, secure })]
  if (result.refreshToken !== undefined) {
    cookies.push(setCookie(REFRESH_COOKIE, result.refreshToken, { path: REFRESH_COOKIE_PATH, maxAgeSeconds: deps.config.app.refreshToken.expiresIn, secure }))
  }
  return cookies
}

function loginBody(ctx: RequestContext, r: LoginResult): Record<string, unknown> {
  if (ctx.generation === 'original') return { accessToken: r.accessToken, refreshToken: r.refreshToken }
  return { accessToken: r.accessToken, refreshToken: r.refreshToken, eula: r.eula, scope: r.scope, id: r.id }
}

export function authHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  const limit = deps.config.server.bodyLimitBytes
  const bodies = {
    login: validatorOf('POST auth/login', Login),
    refresh: validatorOf('POST auth/token', Refresh),
    revoke: validatorOf('DELETE auth/token', Revoke),
    eula: validatorOf('POST auth/eula', Eula),
  }

  const audit = (ctx: RequestContext, fields: Parameters<typeof recordOf>[2]) => recordOf(deps.audit, ctx, fields)

  const login: LocalHandler = async (ctx) => {
    const { username, password } = await parseBody(ctx, limit, bodies.login)
    let result: Awaited<ReturnType<typeof deps.sessions.login>>
    try {
      result = await deps.sessions.login(username, password, clientOf(ctx))
    } catch (err) {
      audit(ctx, { action: 'auth.login', target: username, outcome: 'failure', reason: reasonOf(err), actor: { id: null, name: username, method: 'password' } })
      throw err
    }
    audit(ctx, { action: 'auth.login', target: result.username, actor: { id: result.id, name: result.username, method: result.method } })
    ctx.res.setHeader('set-cookie', tokenCookies(ctx, deps, result))
    reply(ctx, 200, loginBody(ctx, result))
  }

  const refresh: LocalHandler = async (ctx) => {
    const body = await parseBody(ctx, limit, bodies.refresh)
    // The body's refreshToken, else the refreshToken cookie; neither is invalid input (422).
    const token = body.refreshToken ?? readCookie(ctx.req.headers.cookie, REFRESH_COOKIE)
    if (!token) throw invalidInput('"refreshToken" is required')
    if (body.refreshToken === undefined && refreshLacksCsrfHeader(ctx.req.headers)) throw new ApiError('API_INSUFFICIENT_RIGHTS', CSRF_MESSAGE)
    const rotate = (ctx.apiVersion ?? 2) >= 2
    let result: LoginResult
    try {
      result = await deps.sessions.refresh(token, rotate)
    } catch (err) {
      // Every refused refresh is recorded (a reused token's revoked session above all); a
      // successful one is routine and is not.
      audit(ctx, { action: 'auth.refresh', outcome: 'failure', reason: reasonOf(err) })
      throw err
    }
    ctx.res.setHeader('set-cookie', tokenCookies(ctx, deps, result))
    reply(ctx, 200, rotate ? loginBody(ctx, result) : { accessToken: result.accessToken })
  }

  const revoke: LocalHandler = async (ctx) => {
    try {
      if (!ctx.principal?.scopes.includes('team')) throw new ApiError(ctx.principal ? 'API_INSUFFICIENT_RIGHTS' : 'API_UNAUTHORIZED')
      const { refreshToken } = await parseBody(ctx, limit, bodies.revoke)
      if (!(await deps.store.refreshTokens.revoke(refreshToken))) throw new ApiError('API_INVALID_REFRESH_TOKEN')
      audit(ctx, { action: 'auth.revoke' })
      reply(ctx, 200, { success: true })
    } catch (err) {
      const { status } = toErrorResponse(err)
      if (status >= 500) throw err
      unauthorizedText(ctx, status)
    }
  }

  const logout: LocalHandler = async (ctx) => {
    const families = new Set<string>()
    const credentials = readCredentials(ctx.req.headers)
    if (credentials?.kind === 'bearer' || credentials?.kind === 'cookie') {
      const claims = await deps.tokens.verify(credentials.token)
      if (claims.sid) families.add(claims.sid)
    }
    const cookieToken = readCookie(ctx.req.headers.cookie, REFRESH_COOKIE)
    if (cookieToken) {
      const family = await deps.store.refreshTokens.familyOf(cookieToken)
      if (family) families.add(family)
    }
    for (const family of families) await deps.store.refreshTokens.revokeFamily(family)
    audit(ctx, { action: 'auth.logout', after: { sessionsRevoked: families.size } })
    const secure = isSecureRequest(ctx.req)
    ctx.res.setHeader('set-cookie', [
      setCookie(ACCESS_COOKIE, '', { path: ACCESS_COOKIE_PATH, maxAgeSeconds: 0, secure }),
      setCookie(REFRESH_COOKIE, '', { path: REFRESH_COOKIE_PATH, maxAgeSeconds: 0, secure }),
    ])
    reply(ctx, 200, { success: true })
  }

  /** The approval of a single sign-on user, by the ticket of their login: it opens the session. */
  const eulaByTicket = async (ctx: RequestContext, ticket: string): Promise<void> => {
    const found = await deps.sso.eulaTickets.take(ticket)
    const user = found === null ? null : await deps.store.users.byId(found.userId)
    if (!found || !user) {
      audit(ctx, { action: 'auth.eula', target: 'ticket', outcome: 'failure', reason: 'unknown, expired or already used EULA ticket', actor: { id: null, name: 'sso', method: 'sso' } })
      throw new ApiError('API_INVALID_CREDENTIALS', 'The approval expired or was already given; log in through the single sign-on provider again')
    }
    const actor = { id: user.id, name: user.username, method: 'sso' as const }
    const approved = user.eulaApproved ? user : await deps.store.users.update(user.id, { eulaApproved: true })
    audit(ctx, { action: 'auth.eula', target: user.username, before: { eulaApproved: user.eulaApproved }, after: { eulaApproved: true }, actor })
    if (!approved) throw new ApiError('API_INVALID_CREDENTIALS', 'The user was deleted meanwhile')
    const result = await deps.sessions.open(approved, 'sso', found.session)
    audit(ctx, { action: 'auth.login', target: result.username, reason: `provider ${found.session.provider}`, actor })
    ctx.res.setHeader('set-cookie', tokenCookies(ctx, deps, result))
    reply(ctx, 200, { success: true, ...loginBody(ctx, result) })
  }

  const eula: LocalHandler = async (ctx) => {
    const body = await parseBody(ctx, limit, bodies.eula)
    if (body.ticket !== undefined) {
      if (body.username !== undefined || body.password !== undefined) throw invalidInput('give either "ticket" or "username" and "password", not both')
      return eulaByTicket(ctx, body.ticket)
    }
    const { username, password } = body
    if (username === undefined || password === undefined) throw invalidInput('"username" and "password" (or "ticket") are required')
    let user: Awaited<ReturnType<typeof deps.sessions.checkPassword>>
    try {
      user = await deps.sessions.checkPassword(username, password, clientOf(ctx))
    } catch (err) {
      audit(ctx, { action: 'auth.eula', target: username, outcome: 'failure', reason: reasonOf(err), actor: { id: null, name: username, method: 'password' } })
      throw err
    }
    if (!user.eulaApproved) await deps.store.users.update(user.id, { eulaApproved: true })
    audit(ctx, { action: 'auth.eula', target: user.username, before: { eulaApproved: user.eulaApproved }, after: { eulaApproved: true }, actor: { id: user.id, name: user.username, method: user.isLocal ? 'local' : 'ldap' } })
    reply(ctx, 200, { success: true })
  }

  const jwks: LocalHandler = async (ctx) => {
    reply(ctx, 200, deps.signingKey.jwks, { 'cache-control': 'public, max-age=300' })
  }

  /** For a login page: which password logins are on, and the single sign-on providers. */
  const providers: LocalHandler = async (ctx) => {
    const { app, ldap } = deps.config
    reply(ctx, 200, { password: { local: app.enableLocalAuthentication, ldap: ldap.enabled }, sso: deps.sso.list() }, { 'cache-control': 'no-store' })
  }

  return {
    'GET auth/providers': providers,
    'POST auth/login': login,
    'POST auth/token': refresh,
    'DELETE auth/token': revoke,
    'POST auth/logout': logout,
    'POST auth/eula': eula,
    'GET auth/jwks': jwks,
  }
}

/**
 * Endpoints whose error responses are `text/plain` `Unauthorized` (the spec shows it for DELETE
 * auth/token), keyed by handlerKey. The pipeline renders its own 401/403 for them with
 * `sendUnauthorizedText` too.
 */
export const PLAIN_TEXT_ERROR_ENDPOINTS: ReadonlySet<string> = new Set(['DELETE auth/token'])

export function sendUnauthorizedText(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy()
  res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': '12' })
  res.end('Unauthorized')
}

function unauthorizedText(ctx: RequestContext, status: number): void {
  sendUnauthorizedText(ctx.res, status, ctx.responseHeaders)
}
