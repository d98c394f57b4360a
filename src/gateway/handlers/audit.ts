/**
 * POST tables/audit (scope team): the audit trail as a table (audit/query.ts), answered by the
 * gateway from its identity database: JSON `{data, _meta}`, or CSV with the `X-Row-Count` trailer.
 */
import { negotiate } from '../../shared/http/index.js'
import { AUDIT_TABLE, csvField, parseAuditQuery } from '../audit/query.js'
import type { LocalHandler } from '../context.js'
import { readBodyObject } from './body.js'
import { reply, type HandlerDeps } from './deps.js'

export function auditHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  return {
    'POST tables/audit': async (ctx) => {
      const body = await readBodyObject(ctx, deps.config.server.bodyLimitBytes)
      const acceptsCsv = negotiate(ctx.req.headers.accept, ['application/json', 'text/csv']) === 'text/csv'
      const q = parseAuditQuery(body, acceptsCsv, deps.config.query)
      const select = q.columns.map((c) => AUDIT_TABLE[c]!.sql).filter((c, i, all) => all.indexOf(c) === i)
      const limit = q.limit === Number.MAX_SAFE_INTEGER ? 'ALL' : String(q.limit)
      const rows = await deps.auditStore.query<Record<string, unknown>>(
        `SELECT ${['seq', ...select.filter((c) => c !== 'seq')].join(', ')} FROM identity.audit_events WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT ${limit} OFFSET ${q.start}`,
        q.params,
      )
      const data = rows.map((r) => Object.fromEntries(q.columns.map((c) => [c, AUDIT_TABLE[c]!.out(r)])))
      if (!q.csv) {
        const [counted] = await deps.auditStore.query<{ n: number }>(`SELECT count(*)::int8 AS n FROM identity.audit_events WHERE ${q.where}`, q.params)
        reply(ctx, 200, { data, _meta: { limit: q.limit === Number.MAX_SAFE_INTEGER ? null : q.limit, start: q.start, count: Number(counted?.n ?? 0), size: data.length } })
        return
      }
      ctx.res.writeHead(200, { ...ctx.responseHeaders, 'content-type': 'text/csv; charset=utf-8', trailer: 'X-Row-Count' })
      ctx.res.write(`${q.columns.map(csvField).join(',')}\r\n`)
      for (const row of data) ctx.res.write(`${q.columns.map((c) => csvField(row[c])).join(',')}\r\n`)
      ctx.res.addTrailers({ 'X-Row-Count': String(data.length) })
      ctx.res.end()
    },
  }
}
