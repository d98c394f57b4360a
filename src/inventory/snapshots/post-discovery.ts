/**
 * Post-discovery actions of a snapshot, as the 5.x/6.x SDK names them in
 * `disabledPostDiscoveryActions` of `snapshots/{id}/settings`. netinv computes what these stand
 * for on request (intent results when `reports` are read; no graph cache, no history store), so
 * the list is recorded with the snapshot and returned as set; nothing runs late because of it.
 */
import type { ValidationIssue } from '../../shared/errors.js'

export const POST_DISCOVERY_ACTIONS = ['graphCache', 'historicalData', 'intentVerification'] as const
export type PostDiscoveryAction = (typeof POST_DISCOVERY_ACTIONS)[number]

export const DISABLED_ACTIONS_KEY = 'disabledPostDiscoveryActions'

/** The stored list of a snapshot's settings (empty when never set). */
export function disabledActions(settings: Record<string, unknown>): PostDiscoveryAction[] {
  const v = settings[DISABLED_ACTIONS_KEY]
  return Array.isArray(v) ? v.filter((a): a is PostDiscoveryAction => (POST_DISCOVERY_ACTIONS as readonly unknown[]).includes(a)) : []
}

/** Checks a requested list: known names only, each once; returns it sorted, or undefined with issues added. */
export function parseDisabledActions(value: unknown, issues: ValidationIssue[]): PostDiscoveryAction[] | undefined {
  const known = POST_DISCOVERY_ACTIONS as readonly unknown[]
  if (!Array.isArray(value)) {
    issues.push({ message: `"${DISABLED_ACTIONS_KEY}" must be an array of [${POST_DISCOVERY_ACTIONS.join(', ')}]`, path: DISABLED_ACTIONS_KEY })
    return undefined
  }
  let ok = true
  value.forEach((a, i) => {
    if (!known.includes(a)) {
      ok = false
      issues.push({ message: `"${DISABLED_ACTIONS_KEY}[${i}]" must be one of [${POST_DISCOVERY_ACTIONS.join(', ')}]`, path: `${DISABLED_ACTIONS_KEY}[${i}]` })
    }
  })
  return ok ? POST_DISCOVERY_ACTIONS.filter((a) => value.includes(a)) : undefined
}
