/**
 * Post-discovery actions of a snapshot, as the 5.x/6.x SDK names them in
 * `disabledPostDiscoveryActions` of `snapshots/{id}/settings`. netinv computes what these stand
 * for on request (intent results when `reports` are read; no graph cache, no history store), so
 * the list is recorded with the snapshot and returned as set; nothing runs late because of it.
 * The jobs clients wait for by name are recorded as done at once (`recordPostDiscoveryJobs`).
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../shared/db/index.js'

export const POST_DISCOVERY_ACTIONS = ['graphCache', 'historicalData', 'intentVerification'] as const
export type PostDiscoveryAction = (typeof POST_DISCOVERY_ACTIONS)[number]

export const DISABLED_ACTIONS_KEY = 'disabledPostDiscoveryActions'

/** The stored list of a snapshot's settings (empty when never set). */
export function disabledActions(settings: Record<string, unknown>): PostDiscoveryAction[] {
  const v = settings[DISABLED_ACTIONS_KEY]
  return Array.isArray(v) ? v.filter((a): a is PostDiscoveryAction => (POST_DISCOVERY_ACTIONS as readonly unknown[]).includes(a)) : []
}

/** The job each action is in this API family's job list (clients wait for these by name). */
export const POST_DISCOVERY_JOBS: Readonly<Record<PostDiscoveryAction, string>> = {
  graphCache: 'loadGraphCache',
  historicalData: 'saveHistoricalData',
  intentVerification: 'report',
}

/** Actions a change of the list enables again (disabled in `settings`, not in `next`). */
export function reenabled(settings: Record<string, unknown>, next: readonly PostDiscoveryAction[]): PostDiscoveryAction[] {
  return disabledActions(settings).filter((a) => !next.includes(a))
}

/** Actions not disabled in a list. */
export function enabledActions(disabled: readonly PostDiscoveryAction[]): PostDiscoveryAction[] {
  return POST_DISCOVERY_ACTIONS.filter((a) => !disabled.includes(a))
}

/**
 * Records the post-discovery jobs of `actions` for a snapshot as done at once: what they stand
 * for is computed on request, and clients that wait for them by name (after a load, or after
 * enabling an action again) find them finished.
 */
export async function recordPostDiscoveryJobs(db: Queryable, snapshotId: string, actions: readonly PostDiscoveryAction[], username: string | null, now: number): Promise<void> {
  for (const action of actions) {
    await db.query(
      `INSERT INTO inventory.jobs (id, name, status, snapshot_id, scheduled_at, started_at, finished_at, username, progress, message)
       VALUES ($1, $2, 'done', $3, $4, $4, $4, $5, 1, 'nothing to run: netinv computes this on request')`,
      [randomUUID(), POST_DISCOVERY_JOBS[action], snapshotId, now, username],
    )
  }
}
