/**
 * The event loop's longest stalls while something runs, seen from a timer that asks for a turn
 * every millisecond or two: the longest wall-clock gap between two of its turns, and the largest
 * CPU time this process used within one gap. The CPU figure is what the process's own code held
 * the loop for; the wall figure adds the time it waited for a core, which a loaded machine makes
 * long. Compare CPU time with a bound; report the wall time.
 */
export interface Stalls<T> {
  result: T
  /** Longest gap between two turns of the timer (ms). */
  wallMs: number
  /** Most CPU time this process used within one gap (ms). */
  cpuMs: number
}

function cpuNow(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

export async function stalls<T>(fn: () => Promise<T>): Promise<Stalls<T>> {
  let wall = performance.now()
  let cpu = cpuNow()
  let wallMs = 0
  let cpuMs = 0
  const tick = () => {
    const w = performance.now()
    const c = cpuNow()
    wallMs = Math.max(wallMs, w - wall)
    cpuMs = Math.max(cpuMs, c - cpu)
    wall = w
    cpu = c
  }
  const timer = setInterval(tick, 1)
  try {
    const result = await fn()
    tick()
    return { result, wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs) }
  } finally {
    clearInterval(timer)
  }
}
