/**
 * Long work in the service's thread takes turns with everything else its event loop serves.
 * A loop over many rows (encoding a table for COPY, picking some devices' rows out of a
 * simulation, generating a network) that only ever awaits promises that are already settled runs
 * as one chain of microtasks: no timer, no socket, no other user's request gets a turn until it
 * ends. Such a loop asks its `Pace` after each step and, once it has worked for `TURN_MS`, awaits
 * `nextTurn()`: pending I/O and timers run, then the loop goes on.
 */

/** Longest stretch of work (ms) a loop does before it lets the event loop serve others. */
export const TURN_MS = 10

/** Resolves after the event loop has polled for I/O and run its due timers (not a microtask). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The clock of one long loop: `due` once it has worked `ms` since its last turn. */
export class Pace {
  private last = performance.now()

  constructor(private readonly ms = TURN_MS) {}

  get due(): boolean {
    return performance.now() - this.last >= this.ms
  }

  /** A turn of the event loop now; the next stretch of work starts after it. */
  async turn(): Promise<void> {
    await nextTurn()
    this.last = performance.now()
  }
}

/** The items of `source`, taking a turn of the event loop whenever `pace` says one is due. */
export async function* paced<T>(source: AsyncIterable<T> | Iterable<T>, pace = new Pace()): AsyncGenerator<T> {
  for await (const item of source) {
    yield item
    if (pace.due) await pace.turn()
  }
}
