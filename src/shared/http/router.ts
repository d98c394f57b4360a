/**
 * A small router for the services' own endpoints. Patterns use the manifest's syntax
 * (`:name` = one segment, `*` = rest). Unknown path → 404, known path with another method →
 * 405 with `Allow`. A `*` pattern may say which of the paths it matches exist (`known`): one it
 * does not know is an unknown path, 404 for every method. A `:name` segment is handed to the
 * handler percent-decoded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from '../errors.js'
import { matchPattern, type Method } from '../manifest.js'

export interface RouteMatch {
  params: Record<string, string>
  /** What `*` matched. */
  rest: string | undefined
}

export type RouteHandler<C> = (ctx: C, match: RouteMatch, req: IncomingMessage, res: ServerResponse) => Promise<void> | void

interface Route<C> {
  method: Method
  pattern: string
  handler: RouteHandler<C>
}

/** A path's parameters as the client meant them (`%24last` is `$last`); 400 for a bad escape. */
function decoded(params: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(params)) {
    if (!value.includes('%')) continue
    try {
      params[name] = decodeURIComponent(value)
    } catch {
      throw new ApiError('API_MALFORMED_REQUEST', 'Malformed request path')
    }
  }
  return params
}

export class Router<C> {
  private readonly routes: Route<C>[] = []
  private readonly exists = new Map<string, (rest: string) => boolean>()

  add(method: Method, pattern: string, handler: RouteHandler<C>): this {
    this.routes.push({ method, pattern, handler })
    return this
  }

  /** Only the paths under `pattern`'s `*` for which `exists` holds match it. */
  known(pattern: string, exists: (rest: string) => boolean): this {
    this.exists.set(pattern, exists)
    return this
  }

  /** Resolves a path (relative, no leading slash); throws 404/405 as ApiError. */
  resolve(method: string, path: string): { handler: RouteHandler<C>; match: RouteMatch; pattern: string } {
    const allowed = new Set<string>()
    for (const route of this.routes) {
      const params = matchPattern(route.pattern, path)
      if (!params) continue
      const rest = params['*']
      if (rest !== undefined && this.exists.get(route.pattern)?.(rest) === false) continue
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
        const { '*': rest, ...named } = params
        return { handler: route.handler, match: { params: decoded(named), rest }, pattern: route.pattern }
      }
      allowed.add(route.method)
    }
    if (allowed.size > 0) {
      throw new ApiError('API_METHOD_NOT_ALLOWED', undefined, { headers: { allow: [...allowed].join(', ') } })
    }
    throw new ApiError('API_NOT_FOUND')
  }

  /** All registered [method, pattern] pairs (tests compare them with the manifest). */
  list(): Array<[Method, string]> {
    return this.routes.map((r) => [r.method, r.pattern])
  }
}
