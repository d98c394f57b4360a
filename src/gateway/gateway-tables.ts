/**
 * The tables the gateway answers itself (`tables/audit`, `tables/users`, `tables/roles`) as the
 * catalog describes tables: `GET tables/<path>/description` is answered here, and `GET tables`
 * lists them after the upstream's tables for callers whose scopes may read them, so that every
 * client that walks the catalog (the web interface's explorer, an SDK) finds them. Same shape as
 * the inventory's descriptions (docs/tables.md): the gateway knows nothing else of the catalog.
 */
import type { Principal } from '../shared/principal.js'
import type { Scope } from '../shared/manifest.js'
import { AUDIT_TABLE, OPERATORS, type AuditColumn, type GatewayTable } from './audit/query.js'
import { ROLES_TABLE, USERS_TABLE } from './identity-tables.js'

export interface GatewayTableEntry {
  /** The table's path under `tables/`. */
  path: string
  title: string
  description: string
  /** Where the web interface shows it. */
  webPath: string
  columns: GatewayTable
  /** The order of rows when a request names none (the handler's tie-break, ascending). */
  defaultSort: { column: string; order: 'asc' | 'desc' }
  /** The scope a caller needs to read it (the manifest's). */
  scope: Scope
}

export const GATEWAY_TABLES: readonly GatewayTableEntry[] = [
  {
    path: 'audit',
    title: 'Audit trail',
    description:
      'Who did what, when, from where, with what outcome: logins and their failures, logouts, token reuse, API keys, users, EULA approvals, settings, snapshots and discoveries. Append-only and hash-chained (`netinv audit verify`). Answered by the gateway.',
    webPath: '/administration/audit',
    columns: AUDIT_TABLE,
    defaultSort: { column: 'id', order: 'asc' },
    scope: 'team',
  },
  {
    path: 'users',
    title: 'Users',
    description: "netinv's users with their scopes and roles (a user's roles are its scopes, with admin for an administrator). Answered by the gateway.",
    webPath: '/administration/users',
    columns: USERS_TABLE,
    defaultSort: { column: 'id', order: 'asc' },
    scope: 'team',
  },
  {
    path: 'roles',
    title: 'Roles',
    description: 'The roles: one system role per scope (read, settings, team, write) and admin. Answered by the gateway.',
    webPath: '/administration/roles',
    columns: ROLES_TABLE,
    defaultSort: { column: 'id', order: 'asc' },
    scope: 'team',
  },
]

/** The catalog's column types for the gateway's. */
const CATALOG_TYPE: Record<AuditColumn['type'], string> = { integer: 'integer', time: 'timestamp', string: 'string', json: 'json', boolean: 'boolean', strings: 'stringArray' }

interface DescribedColumn {
  name: string
  type: string
  description: string
  operators: string[]
}

/** `GET tables/<path>/description` of a gateway table, in the inventory's shape. */
export function describeGatewayTable(entry: GatewayTableEntry): Record<string, unknown> {
  const columns: DescribedColumn[] = Object.entries(entry.columns).map(([name, c]) => ({ name, type: CATALOG_TYPE[c.type], description: c.description, operators: [...OPERATORS[c.type]] }))
  return {
    path: entry.path,
    legacyPaths: [],
    title: entry.title,
    description: entry.description,
    snapshotScoped: false,
    collected: true,
    webPath: entry.webPath,
    defaultSort: entry.defaultSort,
    key: [],
    volatile: [],
    columns,
    exampleRequest: { columns: columns.map((c) => c.name), filters: {}, pagination: { start: 0, limit: 100 }, sort: entry.defaultSort },
  }
}

/** A gateway table as `GET tables` lists it: its description without operators or example. */
function summarize(entry: GatewayTableEntry): Record<string, unknown> {
  const { exampleRequest: _example, columns, ...rest } = describeGatewayTable(entry) as { exampleRequest: unknown; columns: DescribedColumn[] }
  return { ...rest, columns: columns.map(({ operators: _operators, ...c }) => c) }
}

const SUMMARIES = GATEWAY_TABLES.map((entry) => ({ entry, summary: summarize(entry) }))

/**
 * The upstream's `GET tables` answer with the gateway's tables the caller may read appended (a
 * table the upstream lists itself is left as the upstream says). Anything but a list is left alone.
 */
export function withGatewayTables(listing: unknown, principal: Principal | null | undefined): unknown {
  if (!Array.isArray(listing) || !principal) return listing
  const listed = new Set(listing.map((t: unknown) => (typeof t === 'object' && t !== null ? (t as { path?: unknown }).path : undefined)))
  const more = SUMMARIES.filter(({ entry }) => principal.scopes.includes(entry.scope) && !listed.has(entry.path)).map(({ summary }) => summary)
  return more.length === 0 ? listing : [...listing, ...more]
}
