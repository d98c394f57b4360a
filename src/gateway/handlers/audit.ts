/**
 * POST tables/audit (scope team): the audit trail as a table (audit/query.ts), answered by the
 * gateway from its identity database: JSON `{data, _meta}`, or CSV with the `X-Row-Count` trailer.
 */
import { AUDIT_TABLE } from '../audit/query.js'
import type { LocalHandler } from '../context.js'
import type { HandlerDeps } from './deps.js'
import { answerGatewayTable } from './gateway-table.js'

export function auditHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  return {
    'POST tables/audit': (ctx) => answerGatewayTable(ctx, deps, { table: AUDIT_TABLE, from: 'identity.audit_events', tieBreak: 'seq' }),
  }
}
