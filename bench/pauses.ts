/**
 * How often the machine itself stops a running thread: one thread per CPU, pinned there, spins
 * for a while and records every gap between two consecutive clock readings longer than
 * `thresholdMs`. On a quiet machine with cores of its own there are next to none; on a virtual
 * machine whose host takes its CPUs away now and then, they are the floor under every latency
 * percentile that a benchmark can report (a request that was in flight, or arrived, during a
 * pause waits for it, and a server at half load needs as long again to drain what queued up).
 */
import { spawn } from 'node:child_process'

export interface CpuPauses {
  cpu: number
  /** Share of the time the spinning thread did not run. */
  share: number
  count: number
  longestMs: number
}

const SPIN = `
const [ms, threshold] = process.argv.slice(1).map(Number)
const start = performance.now()
let last = start, count = 0, total = 0, longest = 0
for (;;) {
  const t = performance.now()
  const gap = t - last
  if (gap > threshold) { count++; total += gap; if (gap > longest) longest = gap }
  last = t
  if (t - start > ms) break
}
console.log(JSON.stringify({ share: total / (last - start), count, longestMs: longest }))
`

function spinOn(cpu: number, ms: number, thresholdMs: number): Promise<CpuPauses> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(cpu), process.execPath, '-e', SPIN, String(ms), String(thresholdMs)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the pause probe on CPU ${cpu} exited with ${code}`))
      resolve({ cpu, ...(JSON.parse(out) as Omit<CpuPauses, 'cpu'>) })
    })
  })
}

/** Spins on every CPU of `cpus` at once for `ms` (taskset is required). */
export function machinePauses(cpus: number[], ms = 3000, thresholdMs = 0.1): Promise<CpuPauses[]> {
  return Promise.all(cpus.map((cpu) => spinOn(cpu, ms, thresholdMs)))
}

export function describePauses(pauses: CpuPauses[]): string {
  return pauses.map((p) => `CPU ${p.cpu}: ${(p.share * 100).toFixed(2)}% of the time in ${p.count} pauses, longest ${p.longestMs.toFixed(1)} ms`).join('; ')
}
