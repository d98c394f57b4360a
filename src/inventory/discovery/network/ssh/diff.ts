/**
 * The line-by-line difference of two stored configuration texts, as `diff -u` shows it, with
 * the `diff` library (jsdiff, pinned to 8.0.4). It runs in a worker thread, so that two large
 * texts never hold up the service's other requests, two at a time (others wait their turn); it
 * gives up past a bound on the edit distance, and the worker is ended past a time limit.
 */
import { Worker } from 'node:worker_threads'

/** Lines added plus lines removed beyond which no difference is computed. */
export const MAX_EDIT_LINES = 5000
/** Time after which the computation gives up (ms). */
export const DIFF_TIMEOUT_MS = 10_000
/** Differences computed at once. */
const AT_ONCE = 2

export interface ConfigDiff {
  identical: boolean
  /** Lines only `to` has. */
  added: number
  /** Lines only `from` has. */
  removed: number
  /** Unified diff with `context` lines around each change; empty when identical. */
  diff: string
}

interface Side {
  name: string
  text: string
}

// plain JavaScript (no build step): it loads the library the service resolves
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
import(${JSON.stringify(import.meta.resolve('diff'))}).then(({ structuredPatch, formatPatch }) => {
  const { from, to, context, maxEditLength } = workerData
  const patch = structuredPatch(from.name, to.name, from.text, to.text, undefined, undefined, { context, maxEditLength })
  if (patch === undefined) return parentPort.postMessage(null)
  let added = 0
  let removed = 0
  for (const h of patch.hunks) for (const l of h.lines) { if (l[0] === '+') added++; else if (l[0] === '-') removed++ }
  parentPort.postMessage({ added, removed, diff: formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true }) })
})
`

let running = 0
const waiting: Array<() => void> = []

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

function inWorker(from: Side, to: Side, context: number): Promise<Omit<ConfigDiff, 'identical'> | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { from, to, context, maxEditLength: MAX_EDIT_LINES } })
    const timer = setTimeout(() => {
      void worker.terminate()
      resolve(null)
    }, DIFF_TIMEOUT_MS)
    worker.once('message', (m: Omit<ConfigDiff, 'identical'> | null) => {
      clearTimeout(timer)
      void worker.terminate()
      resolve(m)
    })
    worker.once('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })
}

/** Null when the two texts differ in more than MAX_EDIT_LINES lines, or the difference took longer than DIFF_TIMEOUT_MS. */
export async function diffConfigs(from: Side, to: Side, context: number): Promise<ConfigDiff | null> {
  if (from.text === to.text) return { identical: true, added: 0, removed: 0, diff: '' }
  const d = await turn(() => inWorker(from, to, context))
  return d === null ? null : { identical: false, ...d }
}
