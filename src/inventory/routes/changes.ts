/**
 * `GET snapshots/{id}/changes?against=<id | $prev | $last | $lastLocked>`: per table of the
 * catalog that can be compared, the counts of rows added, removed and changed since the other
 * snapshot (default `$prev`, the snapshot before this one of the same network), read from the
 * pair's kept comparison. A table not kept yet is compared now (the join a table request with
 * `compare` runs, under the same settings; its rows that differ and their counts kept in one
 * transaction), all before one deadline (the query time limit), each table kept as soon as it is
 * done (`query/change-counts.ts`).
 */
import { changesDuration, outcomeOf } from '../metrics.js'
import { Deadline } from '../../shared/db/index.js'
import { invalidInput } from '../../shared/errors.js'
import { sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { countChanges, type QueryAdmission } from '../query/index.js'
import { previousSnapshot, resolveSnapshot } from '../snapshots/index.js'

const QUERY_KEYS = new Set(['against', 'volatile'])

export function registerChangeRoutes(router: Router<InventoryRequest>, deps: InventoryDeps, admission: QueryAdmission): void {
  router.add('GET', 'snapshots/:id/changes', timed(async (ctx, m, _req, res) => {
    for (const key of ctx.query.keys()) if (!QUERY_KEYS.has(key)) throw invalidInput([{ message: `"${key}" is not allowed; allowed query parameters are [against, volatile]` }])
    const against = ctx.query.get('against') ?? '$prev'
    if (against === '') throw invalidInput([{ message: '"against" must be a snapshot id or one of [$prev, $last, $lastLocked]' }])
    const volatile = ctx.query.get('volatile') ?? 'false'
    if (volatile !== 'true' && volatile !== 'false') throw invalidInput([{ message: '"volatile" must be one of [true, false]' }])
    const newer = await resolveSnapshot(deps.db, m.params.id!)
    const older = against === '$prev' ? await previousSnapshot(deps.db, newer) : await resolveSnapshot(deps.db, against)
    const deadline = Deadline.after(deps.config.query.statementTimeoutMs)
    const tables = await admission.run(ctx.principal, () => countChanges(deps.db, { older, newer }, volatile === 'true', deadline), deadline)
    sendJson(res, 200, { snapshot: newer, against: older, tables })
  }))
}

/** The handler, its duration observed by outcome (`netinv_inventory_changes_duration_seconds`). */
function timed<A extends unknown[]>(handler: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args) => {
    const started = performance.now()
    let failure: unknown
    try {
      await handler(...args)
    } catch (err) {
      failure = err
      throw err
    } finally {
      changesDuration.observe({ outcome: outcomeOf(failure) }, (performance.now() - started) / 1000)
    }
  }
}
