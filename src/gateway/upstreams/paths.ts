/**
 * The path an upstream is sent, by its versioning mode (the generation prefix the client used is
 * gone; the query string passes unchanged):
 * - `header`: `<base>/api/<endpoint>` (the version goes in `X-API-Version`, see headers.ts);
 * - `path`: `<base>/api/v<major>.<minor>/<endpoint>`, the release the route gives for the
 *   endpoint version (the version stage answered 410 where it gives none);
 * - `original`: `<base>/api/v1/<endpoint>`, or the endpoint's declared camelCase alias;
 * - `none`: `<base>/<endpoint>`.
 */
import type { RequestContext } from '../context.js'
import type { Route } from '../routes/table.js'

export function upstreamPath(ctx: RequestContext, route: Route): string {
  const target = route.target!
  const endpoint = ctx.endpointPath!
  let path: string
  switch (target.versioning) {
    case 'header':
      path = target.apiPrefix + endpoint
      break
    case 'path':
      path = `${target.apiPrefix}v${route.pathReleases!.get(ctx.apiVersion ?? route.defaultVersion)}/${endpoint}`
      break
    case 'original':
      path = `${target.apiPrefix}v1/${route.aliases?.get(endpoint) ?? endpoint}`
      break
    case 'none':
      path = `${target.base}/${endpoint}`
      break
  }
  return ctx.search ? `${path}?${ctx.search}` : path
}
