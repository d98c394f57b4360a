/** GET tables/audit/description, tables/users/description, tables/roles/description: the gateway's own tables described as the catalog describes tables (gateway-tables.ts). */
import type { LocalHandler } from '../context.js'
import { GATEWAY_TABLES, describeGatewayTable } from '../gateway-tables.js'
import { reply } from './deps.js'

export function tableDescriptionHandlers(): Record<string, LocalHandler> {
  const handlers: Record<string, LocalHandler> = {}
  for (const entry of GATEWAY_TABLES) {
    const description = describeGatewayTable(entry)
    handlers[`GET tables/${entry.path}/description`] = async (ctx) => reply(ctx, 200, description)
  }
  return handlers
}
