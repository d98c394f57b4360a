/** Timing helpers the benchmarks share. */

/** The median (lower middle for an even count) of a list of measurements. */
export function p50(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor((s.length - 1) / 2)]!
}

/** Milliseconds one call of `fn` takes. */
export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now()
  await fn()
  return performance.now() - t0
}
