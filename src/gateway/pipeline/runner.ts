/**
 * The generic pipeline runner: an ordered list of named stages, each a small function of the
 * request context that continues (returns nothing), finishes the request (returns DONE, the
 * response is written) or rejects by throwing (an ApiError becomes the response).
 */
import type { Maybe } from '../../shared/maybe.js'

/** Returned by a stage that has answered the request: later stages do not run. */
export const DONE = 'done' as const

export type StageResult = void | typeof DONE

export interface Stage<C> {
  readonly name: string
  run(ctx: C): StageResult | Promise<StageResult>
}

/** The error of a stage, tagged with the stage's name (for the log) unless it already is. */
export function tagged(err: unknown, stage: { name: string }): unknown {
  if (err !== null && typeof err === 'object' && !('stage' in err)) {
    Object.defineProperty(err, 'stage', { value: stage.name, enumerable: false })
  }
  return err
}

/**
 * Runs the stages in order, from `from`. Answers the name of the stage that finished the
 * request, or null when every stage continued. Synchronous stages run one after the other with
 * no promise and no microtask between them; from the first stage that returns a promise on, the
 * answer is a promise. A thrown error (or rejection) propagates with the failing stage's name
 * attached as `stage` (for the log): thrown at once when the stage ran synchronously.
 */
export function runStages<C>(stages: readonly Stage<C>[], ctx: C, from = 0): Maybe<string | null> {
  for (let i = from; i < stages.length; i++) {
    const stage = stages[i]!
    let result: StageResult | Promise<StageResult>
    try {
      result = stage.run(ctx)
    } catch (err) {
      throw tagged(err, stage)
    }
    if (result instanceof Promise) {
      return result.then(
        (r) => (r === DONE ? stage.name : runStages(stages, ctx, i + 1)),
        (err: unknown) => {
          throw tagged(err, stage)
        },
      )
    }
    if (result === DONE) return stage.name
  }
  return null
}

/** The stage names in order (the pipeline as data, for tests and docs). */
export function stageNames<C>(stages: readonly Stage<C>[]): string[] {
  return stages.map((s) => s.name)
}
