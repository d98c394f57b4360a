/** The gateway's own endpoints (auth/*, users*, api-tokens*, tables/audit, tables/users, tables/roles and their descriptions), keyed by handlerKey(method, path). */
import type { LocalHandler, LocalHandlers } from '../context.js'
import { ENDPOINTS } from '../../shared/manifest.js'
import { apiTokenHandlers } from './api-tokens.js'
import { auditHandlers } from './audit.js'
import { identityTableHandlers } from './identity-tables.js'
import { authHandlers } from './auth.js'
import { ssoHandlers } from './sso.js'
import { tableDescriptionHandlers } from './table-descriptions.js'
import type { HandlerDeps } from './deps.js'
import { userHandlers } from './users.js'

export type { HandlerDeps } from './deps.js'
export { PLAIN_TEXT_ERROR_ENDPOINTS, sendUnauthorizedText } from './auth.js'

export function createHandlers(deps: HandlerDeps): LocalHandlers {
  const all: Record<string, LocalHandler> = { ...authHandlers(deps), ...ssoHandlers(deps), ...userHandlers(deps), ...apiTokenHandlers(deps), ...auditHandlers(deps), ...identityTableHandlers(deps), ...tableDescriptionHandlers() }
  for (const key of Object.keys(all)) {
    const [method, path] = key.split(' ') as [string, string]
    const e = ENDPOINTS.find((x) => x.path === path)
    if (!e || e.service !== 'gateway' || !(method in e.methods)) throw new Error(`handler ${key} is not a gateway endpoint of the manifest`)
  }
  return new Map(Object.entries(all))
}
