/**
 * The generic pipeline runner: an ordered list of named stages, each a small function of the
 * request context that continues (returns nothing), finishes the request (returns DONE, the
 * response is written) or rejects by throwing (an ApiError becomes the response).
 */

/** Returned by a stage that has answered the request: later stages do not run. */
export const DONE = 'done' as const

export type StageResult = void | typeof DONE

export interface Stage<C> {
  readonly name: string
  run(ctx: C): StageResult | Promise<StageResult>
}

/**
 * Runs the stages in order. Resolves with the name of the stage that finished the request, or
 * null when every stage continued. A thrown error propagates with the failing stage's name
 * attached as `stage` (for the log).
 */
export async function runStages<C>(stages: readonly Stage<C>[], ctx: C): Promise<string | null> {
  for (const stage of stages) {
    let result: StageResult
    try {
      const r = stage.run(ctx)
      // Synchronous stages cost no microtask hop.
      result = r instanceof Promise ? await r : r
    } catch (err) {
      if (err !== null && typeof err === 'object' && !('stage' in err)) {
        Object.defineProperty(err, 'stage', { value: stage.name, enumerable: false })
      }
      throw err
    }
    if (result === DONE) return stage.name
  }
  return null
}

/** The stage names in order (the pipeline as data, for tests and docs). */
export function stageNames<C>(stages: readonly Stage<C>[]): string[] {
  return stages.map((s) => s.name)
}
