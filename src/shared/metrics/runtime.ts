/**
 * Metrics of the process and of what every service shares, in one registry per process
 * (prom-client): the process and Node.js runtime (CPU, memory, heap by space, file
 * descriptors, garbage collection, event-loop delay as `nodejs_eventloop_lag_*` from
 * `monitorEventLoopDelay`), and the database (src/shared/metrics/db.ts). Each service's
 * /metrics renders it after its own families; `netinv serve` runs both services in one process
 * and renders it once, on the gateway's admin listener.
 */
import { collectDefaultMetrics, Registry } from 'prom-client'

let registry: Registry | undefined
const families: Array<(registry: Registry) => void> = []

/** The process's registry: made (and the runtime collectors started) on first use, so a command that serves no metrics pays nothing. */
export function processRegistry(): Registry {
  if (registry === undefined) {
    registry = new Registry()
    // 10 ms resolution of the event-loop delay histogram: stalls of interest are far longer.
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 })
    // Gauges named like counters (promtool check metrics refuses them); the same counts stay, by
    // type, in nodejs_active_handles, nodejs_active_requests and nodejs_active_resources.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name)
    for (const add of families) add(registry)
  }
  return registry
}

/** Adds families to the process's registry when it is made (at once when it exists). */
export function withProcessRegistry(add: (registry: Registry) => void): void {
  families.push(add)
  if (registry !== undefined) add(registry)
}

/** Prometheus text of the given registries' families, then the process's. */
export async function renderWith(...own: Array<{ metrics(): Promise<string> }>): Promise<string> {
  const parts = await Promise.all([...own, processRegistry()].map((r) => r.metrics()))
  return parts.map((p) => (p.endsWith('\n') || p === '' ? p : `${p}\n`)).join('')
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'
