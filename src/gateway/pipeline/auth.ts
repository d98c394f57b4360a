/**
 * Stages 5 and 6: authentication (delegated to the identity module) and authorization by the
 * manifest's access rule: 'public' needs nothing, 'authenticated' any principal, a scope name
 * that scope. No credentials → 401 API_UNAUTHORIZED; missing scope → 403 API_INSUFFICIENT_RIGHTS.
 */
import { ApiError } from '../../shared/errors.js'
import { CSRF_MESSAGE, lacksCsrfHeader } from '../auth/csrf.js'
import type { AuthService } from '../auth/types.js'
import type { RequestContext } from '../context.js'
import { accessFor } from './route.js'
import type { Stage } from './runner.js'

export function authenticateStage(deps: { auth: AuthService }): Stage<RequestContext> {
  return {
    name: 'authenticate',
    run(ctx) {
      // Public endpoints ignore credentials: a stale token must not break GET /api/version or login.
      if (accessFor(ctx.endpoint!, ctx.method) === 'public') {
        ctx.principal = null
        return
      }
      // A state change on the strength of the session cookie alone must come from our own page.
      if (lacksCsrfHeader(ctx.method, ctx.req.headers)) throw new ApiError('API_INSUFFICIENT_RIGHTS', CSRF_MESSAGE)
      // Usually answered from the verification caches at once: no promise, no microtask.
      const principal = deps.auth.authenticate(ctx)
      if (!(principal instanceof Promise)) {
        ctx.principal = principal
        return
      }
      return principal.then((p) => {
        ctx.principal = p
      })
    },
  }
}

export function authorizeStage(): Stage<RequestContext> {
  return {
    name: 'authorize',
    run(ctx) {
      const access = accessFor(ctx.endpoint!, ctx.method)
      if (access === 'public') return
      const principal = ctx.principal
      if (!principal) throw new ApiError('API_UNAUTHORIZED')
      if (access === 'authenticated') return
      if (access === undefined || !principal.scopes.includes(access)) {
        throw new ApiError('API_INSUFFICIENT_RIGHTS', `Scope "${access}" is required`)
      }
    },
  }
}
