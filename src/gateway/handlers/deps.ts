/** What the gateway's own endpoint handlers work with. */
import type { ServerResponse } from 'node:http'
import type { Config } from '../../shared/config/index.js'
import { sendJson } from '../../shared/http/index.js'
import type { AuditRecorder, AuditStore } from '../audit/index.js'
import type { Authenticator } from '../auth/authenticate.js'
import type { AccessTokens } from '../auth/jwt.js'
import type { SigningKey } from '../auth/keys.js'
import type { Sessions } from '../auth/sessions.js'
import type { SsoLogins } from '../auth/sso/logins.js'
import type { RequestContext } from '../context.js'
import type { Clock, IdentityStore, UsageRecorder } from '../identity/index.js'

export interface HandlerDeps {
  store: IdentityStore
  sessions: Sessions
  sso: SsoLogins
  authenticator: Authenticator
  tokens: AccessTokens
  signingKey: SigningKey
  usage: UsageRecorder
  config: Readonly<Config>
  clock: Clock
  audit: AuditRecorder
  auditStore: AuditStore
}

export function reply(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(ctx.res, status, body, { ...ctx.responseHeaders, ...headers })
}

export function replyEmpty(ctx: RequestContext, status = 204): void {
  const res: ServerResponse = ctx.res
  res.writeHead(status, ctx.responseHeaders)
  res.end()
}
