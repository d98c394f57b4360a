/**
 * A collection of short-lived objects on a hot path (a server's open connections).
 *
 * Not a Set: V8 replaces a Set's hash table as entries come and go, and each replaced table
 * keeps its entries and a link to its successor. Once one replaced table has been promoted to
 * old space, that dead table holds the next one, and through the chain every later entry with
 * everything it reaches, across scavenges: each entry's objects get promoted and only a full GC
 * frees them (milliseconds of scavenge per few hundred entries under load). Here: slots in an
 * array that only grows to the peak count; a freed slot is cleared.
 */
const SLOT = Symbol('netinv.slot')
type Slotted = object & { [SLOT]?: number }

export class Slots<T extends object> {
  readonly #slots: Array<T | undefined> = []
  readonly #free: number[] = []

  add(item: T): void {
    const i = this.#free.length > 0 ? this.#free.pop()! : this.#slots.length
    this.#slots[i] = item
    ;(item as Slotted)[SLOT] = i
  }

  delete(item: T): void {
    const i = (item as Slotted)[SLOT]
    if (i === undefined || this.#slots[i] !== item) return
    this.#slots[i] = undefined
    this.#free.push(i)
    ;(item as Slotted)[SLOT] = undefined
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const item of this.#slots) if (item) yield item
  }
}
