/** What the stages need, built once per gateway and shared by every request. */
import type { Config } from '../../shared/config/index.js'
import type { AuthService } from '../auth/types.js'
import type { LocalHandlers, RequestContext } from '../context.js'
import type { GatewayMetrics } from '../metrics.js'
import type { Limiter } from '../ratelimit/types.js'
import type { RouteTable } from '../routes/table.js'

export interface StageDeps {
  /** The current configuration (reloaded without a restart: read it per request). */
  config(): Readonly<Config>
  /** The route table in service (swapped whole on reload: read it per request). */
  routes(): RouteTable
  /** Wall clock in milliseconds (injected in tests). */
  now(): number
  auth: AuthService
  limiter: Limiter
  /** Gateway-owned endpoints: the identity module's plus version/os-version. */
  handlers: LocalHandlers
  /** Forwards the request to its route's upstream; writes the response (or our error) itself. */
  forward(ctx: RequestContext): void | Promise<void>
  metrics: GatewayMetrics
  /** The `detail` of a 404 for an endpoint path no route matches (GatewayDeps `unknownPath`). */
  unknownPath?: (endpointPath: string) => string | undefined
}
