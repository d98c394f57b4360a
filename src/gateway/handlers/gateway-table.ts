/**
 * Answers a table request over a table the gateway holds itself (the audit trail, users, roles):
 * JSON `{data, _meta}`, or CSV with the `X-Row-Count` trailer. The relation and its columns come
 * from the gateway's code only; the request's values reach the database as parameters.
 */
import { negotiate } from '../../shared/http/index.js'
import { csvField, parseGatewayTableQuery, type GatewayTable } from '../audit/query.js'
import type { RequestContext } from '../context.js'
import { readBodyObject } from './body.js'
import { reply, type HandlerDeps } from './deps.js'

export interface GatewayTableSource {
  table: GatewayTable
  /** The relation, e.g. `identity.audit_events` or a parenthesised SELECT with an alias. */
  from: string
  /** A column of the relation unique per row: the last sort key, so that pages never overlap. */
  tieBreak: string
  /** Parameters the relation itself uses ($1 ... $n), before the request's. */
  params?: readonly unknown[]
}

export async function answerGatewayTable(ctx: RequestContext, deps: HandlerDeps, source: GatewayTableSource): Promise<void> {
  const body = await readBodyObject(ctx, deps.config.server.bodyLimitBytes)
  const acceptsCsv = negotiate(ctx.req.headers.accept, ['application/json', 'text/csv']) === 'text/csv'
  const q = parseGatewayTableQuery(body, acceptsCsv, deps.config.query, source.table, source.tieBreak)
  // the relation's own parameters come first: shift the request's placeholders past them
  const offset = source.params?.length ?? 0
  const shift = (sql: string) => (offset === 0 ? sql : sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`))
  const params = [...(source.params ?? []), ...q.params]
  const select = q.columns.map((c) => source.table[c]!.sql).filter((c, i, all) => all.indexOf(c) === i)
  const limit = q.limit === Number.MAX_SAFE_INTEGER ? 'ALL' : String(q.limit)
  const where = shift(q.where)
  const columns = [source.tieBreak, ...select.filter((c) => c !== source.tieBreak)].join(', ')
  const page = (extra: string) => `SELECT ${columns}${extra} FROM ${source.from} WHERE ${where} ORDER BY ${q.orderBy} LIMIT ${limit} OFFSET ${q.start}`
  if (!q.csv) {
    // The page and the count in one statement, so that both see the same rows (the trail grows
    // while it is read): the count's one row, joined to the page's rows in their order, or alone
    // past the end.
    const rows = await deps.auditStore.query<Record<string, unknown> & { netinv_count: string | number }>(
      `SELECT c.netinv_count, p.* FROM (SELECT count(*)::int8 AS netinv_count FROM ${source.from} WHERE ${where}) c
       LEFT JOIN LATERAL (${page(`, row_number() OVER (ORDER BY ${q.orderBy}) AS netinv_at`)}) p ON true ORDER BY p.netinv_at`,
      params,
    )
    const data = rows.filter((r) => r[source.tieBreak] !== null).map((r) => Object.fromEntries(q.columns.map((c) => [c, source.table[c]!.out(r)])))
    reply(ctx, 200, { data, _meta: { limit: q.limit === Number.MAX_SAFE_INTEGER ? null : q.limit, start: q.start, count: Number(rows[0]?.netinv_count ?? 0), size: data.length } })
    return
  }
  const rows = await deps.auditStore.query<Record<string, unknown>>(page(''), params)
  const data = rows.map((r) => Object.fromEntries(q.columns.map((c) => [c, source.table[c]!.out(r)])))
  ctx.res.writeHead(200, { ...ctx.responseHeaders, 'content-type': 'text/csv; charset=utf-8', trailer: 'X-Row-Count' })
  ctx.res.write(`${q.columns.map(csvField).join(',')}\r\n`)
  for (const row of data) ctx.res.write(`${q.columns.map((c) => csvField(row[c])).join(',')}\r\n`)
  ctx.res.addTrailers({ 'X-Row-Count': String(data.length) })
  ctx.res.end()
}
