/** POST tables/users and POST tables/roles (scope team): netinv's users and roles as tables (identity-tables.ts). */
import { ROLES, ROLES_FROM, ROLES_TABLE, USERS_FROM, USERS_TABLE } from '../identity-tables.js'
import type { LocalHandler } from '../context.js'
import type { HandlerDeps } from './deps.js'
import { answerGatewayTable } from './gateway-table.js'

export function identityTableHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  return {
    'POST tables/users': (ctx) => answerGatewayTable(ctx, deps, { table: USERS_TABLE, from: USERS_FROM, tieBreak: 'id' }),
    'POST tables/roles': (ctx) => answerGatewayTable(ctx, deps, { table: ROLES_TABLE, from: ROLES_FROM, tieBreak: 'id', params: [JSON.stringify(ROLES)] }),
  }
}
