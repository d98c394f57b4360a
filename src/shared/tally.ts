/** How many of something are in progress per key (queries per user, workers per job). */
export class Tally<K> {
  private readonly counts = new Map<K, number>()

  count(key: K): number {
    return this.counts.get(key) ?? 0
  }

  /** Keys with something in progress. */
  keys(): K[] {
    return [...this.counts.keys()]
  }

  /** Counts one more for `key`; returns the function that ends it (once, however often called). */
  enter(key: K): () => void {
    this.counts.set(key, this.count(key) + 1)
    let ended = false
    return () => {
      if (ended) return
      ended = true
      const rest = this.count(key) - 1
      if (rest > 0) this.counts.set(key, rest)
      else this.counts.delete(key)
    }
  }
}
