/**
 * Periodic network discovery: when the schedule is on, a discovery starts once the interval has
 * passed since the last scheduled one, never while another discovery runs. Several replicas
 * share the work through one row: only the replica whose update claims the slot starts it.
 */
import { countCredentials } from '../settings/credential-store.js'
import { getNetworkSettings, runOf } from '../settings/network.js'
import { startNetworkDiscovery } from './network-discovery.js'
import type { InventoryServices } from './runner.js'

/** How often the schedule is looked at. */
export const SCHEDULE_CHECK_MS = 30_000
const CLAIM_KEY = 'network-schedule'

/** Starts a scheduled discovery when one is due; returns its snapshot id, or null. */
export async function runScheduleOnce(svc: InventoryServices): Promise<string | null> {
  const s = await getNetworkSettings(svc.db)
  if (!s.schedule.enabled || s.seeds.length === 0 || (await countCredentials(svc.db)) === 0) return null
  const busy = await svc.db.query(`SELECT 1 FROM inventory.jobs WHERE name = 'discoveryNew' AND status IN ('scheduled', 'running') LIMIT 1`)
  if (busy.rows.length > 0) return null
  const now = svc.now()
  const due = now - s.schedule.intervalMinutes * 60_000
  await svc.db.query(`INSERT INTO inventory.settings (key, value, updated_at) VALUES ($1, '{}', 0) ON CONFLICT (key) DO NOTHING`, [CLAIM_KEY])
  const claim = await svc.db.query(`UPDATE inventory.settings SET value = $2, updated_at = $3 WHERE key = $1 AND updated_at <= $4 RETURNING key`, [
    CLAIM_KEY,
    JSON.stringify({ by: svc.runner.instance }),
    now,
    due,
  ])
  if (claim.rows.length === 0) return null
  const d = await startNetworkDiscovery(svc, { run: runOf(s), name: null, note: 'scheduled discovery', username: null })
  svc.log.info({ snapshot: d.id }, 'scheduled network discovery started')
  return d.id
}

/** Looks at the schedule periodically; returns the function that stops it. */
export function startSchedule(svc: InventoryServices, everyMs = SCHEDULE_CHECK_MS): () => void {
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    runScheduleOnce(svc)
      .catch((err: unknown) => svc.log.warn({ err }, 'scheduled discovery could not start'))
      .finally(() => (busy = false))
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
