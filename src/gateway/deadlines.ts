/**
 * Deadlines of many short-lived things (forwarded requests) checked by one timer: a setTimeout
 * and a clearTimeout per request cost more than its share of a sweep every few milliseconds.
 * Each sweep asks `check` about every watched entry and drops those it no longer needs to watch
 * (expired and dealt with, or settled). An entry that settles can leave at once (`unwatch`, O(1)),
 * so finished requests are not kept alive until the next sweep; `check` itself may unwatch any
 * entry (dealing with one can settle it), and the sweep then drops it without losing another.
 * The timer runs while entries are watched (it stops at the first sweep that finds none) and
 * never keeps the process alive; a deadline is met within one tick.
 */

/** An entry knows its place in the watch (-1: not watched). */
export interface Watched {
  watchSlot: number
}

export class DeadlineWatch<T extends Watched> {
  readonly #items: T[] = []
  #timer: NodeJS.Timeout | undefined = undefined
  /** A sweep is compacting #items: unwatch only marks the entry, the sweep drops it. */
  #sweeping = false

  constructor(
    /** Deals with `item` at `now` (performance.now()); true while it still has to be watched. */
    private readonly check: (item: T, now: number) => boolean,
    /** How often to sweep, in ms (read when the timer starts). */
    private readonly tickMs: () => number,
  ) {}

  get size(): number {
    return this.#items.length
  }

  watch(item: T): void {
    item.watchSlot = this.#items.length
    this.#items.push(item)
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.sweep(performance.now()), this.tickMs())
      this.#timer.unref()
    }
  }

  unwatch(item: T): void {
    const items = this.#items
    const i = item.watchSlot
    if (i < 0 || items[i] !== item) return
    if (this.#sweeping) {
      item.watchSlot = -1
      return
    }
    const last = items.pop()!
    if (last !== item) {
      items[i] = last
      last.watchSlot = i
    }
    item.watchSlot = -1
  }

  sweep(now: number): void {
    const items = this.#items
    let kept = 0
    this.#sweeping = true
    try {
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!
        // Unwatched during this sweep (or, kept by the last one, marked after it): dropped.
        if (item.watchSlot === -1) continue
        if (this.check(item, now) && item.watchSlot !== -1) {
          item.watchSlot = kept
          items[kept++] = item
        } else item.watchSlot = -1
      }
    } finally {
      this.#sweeping = false
    }
    items.length = kept
    if (kept === 0) this.stop()
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }
}
