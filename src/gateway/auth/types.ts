import type { Principal } from '../../shared/principal.js'
import type { LocalHandlers, RequestContext } from '../context.js'

export interface AuthService {
  /** null when the request carries no credentials; throws ApiError (401 codes) for bad ones. */
  authenticate(ctx: RequestContext): Promise<Principal | null>
  /** Gateway-owned endpoints (auth/*, users*, api-tokens*), keyed by handlerKey(method, endpoint.path). */
  handlers: LocalHandlers
  ready(): Promise<boolean>
  close(): Promise<void>
}
