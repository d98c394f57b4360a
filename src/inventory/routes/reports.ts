/**
 * Intent (colour) reports: `GET reports?snapshot=` (rules with per-severity counts), `GET
 * reports/groups`, `GET|PATCH|DELETE reports/:id`, `POST reports` (custom rules). Scopes are
 * enforced by the gateway from the manifest.
 */
import type { Router } from '../../shared/http/index.js'
import { readJson, sendEmpty, sendJson } from '../../shared/http/index.js'
import { ApiError } from '../../shared/errors.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { Deadline } from '../../shared/db/index.js'
import { queryAdmission, type QueryAdmission } from '../query/index.js'
import { ReportService, type ReportRule, type RuleResult } from '../reports/index.js'
import { DEFAULT_TABLE_ROUTE_OPTIONS, type TableRouteOptions } from './tables.js'

export function registerReportRoutes(
  router: Router<InventoryRequest>,
  deps: InventoryDeps,
  options: TableRouteOptions = DEFAULT_TABLE_ROUTE_OPTIONS,
  admission: QueryAdmission = queryAdmission(deps),
): void {
  const service = new ReportService({ db: deps.db, findTable: options.findTable, statementTimeoutMs: deps.config.query.statementTimeoutMs })

  /** Results on the snapshot of `?snapshot=` ($last when absent; none when no snapshot exists yet). */
  async function resultsFor(ctx: InventoryRequest, rules: readonly ReportRule[]): Promise<Map<string, RuleResult> | undefined> {
    const ref = ctx.query.get('snapshot')
    const deadline = Deadline.after(deps.config.query.statementTimeoutMs)
    let snapshotId: string
    try {
      snapshotId = await options.resolveSnapshot(deps.db, ref ?? '$last')
    } catch (err) {
      if (ref === null && err instanceof ApiError && err.status === 404) return undefined
      throw err
    }
    return admission.run(ctx.principal, () => service.results(rules, snapshotId, deadline), deadline)
  }

  router.add('GET', 'reports/groups', async (_ctx, _match, _req, res) => {
    const rules = await service.rules()
    sendJson(
      res,
      200,
      service.groups().map((g) => {
        const members = rules.filter((r) => r.groups.includes(g.id)).map((r) => r.id)
        // `custom` and `children` ({id, weight}) as the 6.x SDK's group model reads them
        return { ...g, custom: false, reports: members, children: members.map((id) => ({ id, weight: 1 })) }
      }),
    )
  })

  router.add('GET', 'reports', async (ctx, _match, _req, res) => {
    const rules = await service.rules()
    const results = await resultsFor(ctx, rules)
    sendJson(res, 200, rules.map((rule) => service.toApi(rule, results ? (results.get(rule.id) ?? null) : null)))
  })

  router.add('POST', 'reports', async (ctx, _match, req, res) => {
    const body = await readJson(req, deps.config.server.bodyLimitBytes)
    const rule = await service.create(body, ctx.principal?.username ?? null)
    sendJson(res, 201, service.toApi(rule))
  })

  router.add('GET', 'reports/:id', async (ctx, match, _req, res) => {
    const rule = await service.get(match.params.id!)
    const results = await resultsFor(ctx, [rule])
    sendJson(res, 200, service.toApi(rule, results ? (results.get(rule.id) ?? null) : null))
  })

  router.add('PATCH', 'reports/:id', async (_ctx, match, req, res) => {
    const body = await readJson(req, deps.config.server.bodyLimitBytes)
    sendJson(res, 200, service.toApi(await service.update(match.params.id!, body)))
  })

  router.add('DELETE', 'reports/:id', async (_ctx, match, _req, res) => {
    await service.remove(match.params.id!)
    sendEmpty(res, 204)
  })
}
