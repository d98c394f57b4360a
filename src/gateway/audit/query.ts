/**
 * `POST tables/audit`: the audit trail read with a table request, answered by the gateway itself
 * (the trail is the gateway's, in its identity database, and never reaches the inventory).
 * The request is the inventory's table request where it applies: `columns`, `filters` (column →
 * `[operator, value]`, nested `and` / `or`), `sort` `{column, order}`, `pagination`
 * `{limit, start}`, `format` / `Accept: text/csv`; `snapshot` is accepted and ignored. Answer:
 * `{data, _meta: {limit, start, count, size}}`, or CSV ending with the `X-Row-Count` trailer.
 */
import { invalidInput } from '../../shared/errors.js'

/** A column of a table the gateway answers itself: its SQL over the table's relation, its type, its value from a row, what it means. */
export interface AuditColumn {
  sql: string
  type: 'integer' | 'time' | 'string' | 'json' | 'boolean' | 'strings'
  out: (row: Record<string, unknown>) => unknown
  /** For the table's description (`GET tables/<path>/description`). */
  description: string
}

/** The columns of such a table by API name. */
export type GatewayTable = Readonly<Record<string, AuditColumn>>

const text = (key: string) => (r: Record<string, unknown>) => (r[key] ?? null) as unknown
const json = (key: string) => (r: Record<string, unknown>) => (r[key] === null || r[key] === undefined ? null : (JSON.parse(String(r[key])) as unknown))

export const AUDIT_TABLE: Readonly<Record<string, AuditColumn>> = {
  id: { sql: 'seq', type: 'integer', out: (r) => Number(r.seq), description: 'The event\'s place in the trail (1, 2, ...): ascending is the order the events were recorded in.' },
  time: { sql: 'at', type: 'time', out: (r) => new Date(Number(r.at)).toISOString(), description: 'When it happened (RFC 3339, UTC); filters take an RFC 3339 time or milliseconds since the epoch.' },
  actorId: { sql: 'actor_id', type: 'string', out: text('actor_id'), description: 'The user who acted (for an API key: its owner), by id; null when unknown (e.g. a failed login of an unknown name).' },
  actorName: { sql: 'actor_name', type: 'string', out: text('actor_name'), description: 'The username as it was at the time (the name tried, for a failed login).' },
  actorMethod: { sql: 'actor_method', type: 'string', out: text('actor_method'), description: 'How the actor authenticated: local, ldap, sso, apiKey, basic, bearer, cookie; password for a failed login; anonymous for none.' },
  apiKeyId: { sql: 'api_key_id', type: 'string', out: text('api_key_id'), description: 'The API key used, when one was.' },
  requestId: { sql: 'request_id', type: 'string', out: text('request_id'), description: 'The X-Request-Id of the request; its access log line carries the same.' },
  clientIp: { sql: 'client_ip', type: 'string', out: text('client_ip'), description: 'The client address, as the gateway keys its rate limits (trusted proxies applied).' },
  action: { sql: 'action', type: 'string', out: text('action'), description: 'What was done, e.g. auth.login, auth.refresh, user.update, apiKey.delete, snapshot.lock, settings.update.' },
  target: { sql: 'target', type: 'string', out: text('target'), description: 'What it was done to (a user, a key, a snapshot, an endpoint), or null.' },
  outcome: { sql: 'outcome', type: 'string', out: text('outcome'), description: 'success or failure.' },
  reason: { sql: 'reason', type: 'string', out: text('reason'), description: 'Why it failed (an error code, a directory\'s answer), or null.' },
  before: { sql: 'before_json', type: 'json', out: json('before_json'), description: 'The target before the change, secrets masked, where there is one.' },
  after: { sql: 'after_json', type: 'json', out: json('after_json'), description: 'The target after the change, secrets masked, where there is one.' },
  hash: { sql: 'hash', type: 'string', out: text('hash'), description: 'SHA-256 over the event\'s content and the previous event\'s hash: `netinv audit verify` walks the chain.' },
  prevHash: { sql: 'prev_hash', type: 'string', out: text('prev_hash'), description: 'The hash of the event before it (the chain\'s anchor after a retention prune).' },
}

/** The operators a filter may use per column type. */
export const OPERATORS: Record<AuditColumn['type'], readonly string[]> = {
  integer: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'],
  time: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'],
  string: ['eq', 'neq', 'ieq', 'like', 'notlike', 'empty'],
  json: ['like', 'notlike', 'empty'],
  boolean: ['eq', 'neq'],
  strings: ['like', 'notlike', 'empty'],
}

const SQL_OPS: Record<string, string> = { eq: '=', neq: 'IS DISTINCT FROM', gt: '>', gte: '>=', lt: '<', lte: '<=' }

const MAX_DEPTH = 12
const MAX_CONDITIONS = 500

export interface AuditQuery {
  columns: string[]
  where: string
  params: unknown[]
  orderBy: string
  limit: number
  start: number
  csv: boolean
}

function bad(message: string, path: string): Error {
  return invalidInput([{ message, path }])
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

class FilterBuilder {
  readonly params: unknown[] = []
  private conditions = 0

  constructor(private readonly table: GatewayTable) {}

  private param(v: unknown): string {
    this.params.push(v)
    return `$${this.params.length}`
  }

  build(filter: unknown, path: string, depth: number): string {
    if (depth > MAX_DEPTH) throw bad(`filters nest at most ${MAX_DEPTH} deep`, path)
    if (!isObject(filter)) throw bad('"filters" must be an object of column → [operator, value]', path)
    const parts: string[] = []
    for (const [key, value] of Object.entries(filter)) {
      const here = path ? `${path}.${key}` : key
      if (key === 'and' || key === 'or') {
        if (!Array.isArray(value)) throw bad(`"${key}" must be a list of filter objects`, here)
        const inner = value.map((f, i) => this.build(f, `${here}[${i}]`, depth + 1)).filter((s) => s !== 'TRUE')
        if (inner.length > 0) parts.push(`(${inner.join(key === 'and' ? ' AND ' : ' OR ')})`)
        else if (key === 'or' && value.length > 0) parts.push('FALSE')
        continue
      }
      parts.push(this.condition(key, value, here))
    }
    return parts.length === 0 ? 'TRUE' : parts.join(' AND ')
  }

  private condition(name: string, value: unknown, path: string): string {
    if (++this.conditions > MAX_CONDITIONS) throw bad(`at most ${MAX_CONDITIONS} conditions`, path)
    const column = this.table[name]
    if (!column) throw bad(`unknown column "${name}"; the columns are ${Object.keys(this.table).join(', ')}`, path)
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string') {
      throw bad(`a condition is [operator, value]`, path)
    }
    const [op, operand] = value as [string, unknown]
    if (!OPERATORS[column.type].includes(op)) throw bad(`operator "${op}" does not apply to ${name}; use ${OPERATORS[column.type].join(', ')}`, path)
    if (op === 'empty') {
      if (typeof operand !== 'boolean') throw bad('"empty" takes true or false', path)
      if (column.type === 'strings') return operand ? `coalesce(cardinality(${column.sql}), 0) = 0` : `cardinality(${column.sql}) > 0`
      return operand ? `(${column.sql} IS NULL OR ${column.sql} = '')` : `(${column.sql} IS NOT NULL AND ${column.sql} <> '')`
    }
    if (column.type === 'integer' || column.type === 'time') {
      let n: number
      if (column.type === 'time' && typeof operand === 'string') n = Date.parse(operand)
      else n = typeof operand === 'number' ? operand : Number.NaN
      if (!Number.isFinite(n)) throw bad(`${name} takes ${column.type === 'time' ? 'an RFC 3339 time or milliseconds since the epoch' : 'a number'}`, path)
      return `${column.sql} ${SQL_OPS[op]} ${this.param(Math.trunc(n))}`
    }
    if (column.type === 'boolean') {
      if (typeof operand !== 'boolean') throw bad(`${name} takes true or false`, path)
      return op === 'eq' ? `${column.sql} = ${this.param(operand)}` : `${column.sql} IS DISTINCT FROM ${this.param(operand)}`
    }
    if (typeof operand !== 'string') throw bad(`${name} takes a string`, path)
    if (column.type === 'strings') {
      const text = `array_to_string(${column.sql}, ',')`
      return op === 'like' ? `${text} ILIKE ${this.param(likePattern(operand))}` : `(${column.sql} IS NULL OR ${text} NOT ILIKE ${this.param(likePattern(operand))})`
    }
    switch (op) {
      case 'eq':
        return `${column.sql} = ${this.param(operand)}`
      case 'neq':
        return `${column.sql} IS DISTINCT FROM ${this.param(operand)}`
      case 'ieq':
        return `lower(${column.sql}) = lower(${this.param(operand)})`
      case 'like':
        return `${column.sql} ILIKE ${this.param(likePattern(operand))}`
      default:
        return `(${column.sql} IS NULL OR ${column.sql} NOT ILIKE ${this.param(likePattern(operand))})`
    }
  }
}

/** Validates a table request for the audit table; 422 with the documented body for anything wrong. */
export function parseAuditQuery(body: unknown, acceptsCsv: boolean, limits: { defaultLimit: number; maxLimit: number }): AuditQuery {
  return parseGatewayTableQuery(body, acceptsCsv, limits, AUDIT_TABLE, 'seq')
}

/**
 * Validates a table request for a table the gateway answers (`table`, rows ordered last by
 * `tieBreak`, an SQL expression that is unique per row); 422 with the documented body for anything wrong.
 */
export function parseGatewayTableQuery(
  body: unknown,
  acceptsCsv: boolean,
  limits: { defaultLimit: number; maxLimit: number },
  table: GatewayTable,
  tieBreak: string,
): AuditQuery {
  if (!isObject(body)) throw invalidInput('the body must be a table request object')
  const known = new Set(['snapshot', 'columns', 'filters', 'pagination', 'sort', 'format', 'reports'])
  for (const k of Object.keys(body)) if (!known.has(k)) throw bad(`"${k}" is not allowed`, k)
  const columns = body.columns
  if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string')) throw bad('"columns" must be a non-empty list of column names', 'columns')
  // the inventory's wording, which clients parse for the list of columns (e.g. an SDK's get_columns)
  for (const [i, c] of (columns as string[]).entries()) {
    if (!table[c]) throw bad(`"columns[${i}]" must be one of [${Object.keys(table).join(', ')}]`, `columns[${i}]`)
  }
  const builder = new FilterBuilder(table)
  const where = body.filters === undefined ? 'TRUE' : builder.build(body.filters, 'filters', 0)
  let orderBy = `${tieBreak} ASC`
  if (body.sort !== undefined) {
    const s = body.sort
    if (!isObject(s) || typeof s.column !== 'string' || !table[s.column] || (s.order !== undefined && s.order !== 'asc' && s.order !== 'desc')) {
      throw bad('"sort" is {column: <a column>, order: "asc" | "desc"}', 'sort')
    }
    const dir = s.order === 'desc' ? 'DESC' : 'ASC'
    orderBy = `${table[s.column]!.sql} ${dir} ${dir === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST'}, ${tieBreak} ${dir}`
  }
  let format: unknown = body.format
  if (format !== undefined && (!isObject(format) || (format.dataType !== undefined && format.dataType !== 'csv' && format.dataType !== 'json'))) {
    throw bad('"format" is {exportToFile?: boolean, dataType?: "csv" | "json"}', 'format')
  }
  format = format as { dataType?: string } | undefined
  const csv = acceptsCsv || (format as { dataType?: string } | undefined)?.dataType === 'csv'
  let limit = csv && body.pagination === undefined ? Number.MAX_SAFE_INTEGER : limits.defaultLimit
  let start = 0
  if (body.pagination !== undefined) {
    const p = body.pagination
    if (!isObject(p)) throw bad('"pagination" is {limit, start}', 'pagination')
    if (p.limit !== undefined) {
      if (typeof p.limit !== 'number' || !Number.isInteger(p.limit) || p.limit < 0 || p.limit > limits.maxLimit) throw bad(`"pagination.limit" must be an integer from 0 to ${limits.maxLimit}`, 'pagination.limit')
      limit = p.limit
    }
    if (p.start !== undefined) {
      if (typeof p.start !== 'number' || !Number.isInteger(p.start) || p.start < 0) throw bad('"pagination.start" must be an integer ≥ 0', 'pagination.start')
      start = p.start
    }
  }
  return { columns: columns as string[], where, params: builder.params, orderBy, limit, start, csv }
}

/** One CSV field: quoted when needed; a text that a spreadsheet would run as a formula gets a leading `'`. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'number') return String(v)
  let s = typeof v === 'string' ? v : JSON.stringify(v)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}
