/**
 * The responses in flight (told to close their connection when draining starts).
 *
 * Not a Set: V8 replaces a Set's hash table as entries come and go, and each replaced table
 * keeps its entries and a link to its successor. Once one replaced table has been promoted to
 * old space, that dead table holds the next one, and through the chain every later response
 * with everything it reaches, across scavenges: each request's objects get promoted and only a
 * full GC frees them (milliseconds of scavenge per few hundred requests under load). Here:
 * slots in an array that only grows to the peak concurrency; a freed slot is cleared.
 */
import type { ServerResponse } from 'node:http'

const SLOT = Symbol('netinv.inFlightSlot')
type Slotted = ServerResponse & { [SLOT]?: number }

export class InFlight {
  readonly #slots: Array<ServerResponse | undefined> = []
  readonly #free: number[] = []

  add(res: ServerResponse): void {
    const i = this.#free.length > 0 ? this.#free.pop()! : this.#slots.length
    this.#slots[i] = res
    ;(res as Slotted)[SLOT] = i
  }

  delete(res: ServerResponse): void {
    const i = (res as Slotted)[SLOT]
    if (i === undefined || this.#slots[i] !== res) return
    this.#slots[i] = undefined
    this.#free.push(i)
    ;(res as Slotted)[SLOT] = undefined
  }

  *[Symbol.iterator](): IterableIterator<ServerResponse> {
    for (const res of this.#slots) if (res) yield res
  }
}
