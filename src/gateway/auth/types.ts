/**
 * The contract between the gateway's request pipeline and its identity module
 * (implemented in ./index.ts as `createAuthService(...)`).
 */
import type { Maybe } from '../../shared/maybe.js'
import type { UpstreamTokens } from '../proxy.js'
import type { Principal } from '../../shared/principal.js'
import type { LocalHandlers, RequestContext } from '../context.js'

export interface AuthService {
  /**
   * null when the request carries no credentials; throws ApiError (401 codes) for bad ones. The
   * answer comes at once when verification caches hold it (a promise only when one must load),
   * and a bad credential may throw synchronously.
   */
  authenticate(ctx: RequestContext): Maybe<Principal | null>
  /** Gateway-owned endpoints (auth/*, users*, api-tokens*), keyed by handlerKey(method, endpoint.path). */
  handlers: LocalHandlers
  /** Tokens for upstreams with `jwt` identity, signed with the access-token key (absent: `jwt` cannot be used). */
  upstreamTokens?: UpstreamTokens
  /** A response ended (status 499: the client went away): records forwarded state changes in the audit trail. */
  observe?(ctx: RequestContext, status: number): void
  ready(): Promise<boolean>
  close(): Promise<void>
}
