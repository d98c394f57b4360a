/**
 * The hash chain of the audit trail: each event's hash is SHA-256 over its sequence number, its
 * content and the previous event's hash, so that altering, removing or reordering an event
 * breaks the chain at that event. Pruning keeps the last pruned event's sequence number and hash
 * as the anchor the rest is verified from.
 */
import { createHash } from 'node:crypto'
import type { AuditEvent, StoredAuditEvent } from './types.js'

export const GENESIS_HASH = '0'.repeat(64)

/** The JSON text kept for a before/after value (null for none). */
export function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

export function eventHash(seq: number, e: AuditEvent, prevHash: string): string {
  const content = JSON.stringify([
    seq,
    e.at,
    e.actorId,
    e.actorName,
    e.actorMethod,
    e.apiKeyId,
    e.requestId,
    e.clientIp,
    e.action,
    e.target,
    e.outcome,
    e.reason,
    jsonOrNull(e.before),
    jsonOrNull(e.after),
  ])
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex')
}

export interface Anchor {
  seq: number
  hash: string
}

export type Verification =
  | { ok: true; checked: number; head: Anchor }
  | { ok: false; checked: number; seq: number; problem: string }

/** Walks `events` (in their stored order) from `anchor`; names the first event that breaks the chain. */
export class ChainVerifier {
  private prev: Anchor
  private checked = 0
  private failure: Verification | undefined

  constructor(anchor: Anchor) {
    this.prev = anchor
  }

  /** false once the chain is broken (the rest need not be read). */
  add(e: StoredAuditEvent): boolean {
    if (this.failure) return false
    const expected = this.prev.seq + 1
    const fail = (seq: number, problem: string) => {
      this.failure = { ok: false, checked: this.checked, seq, problem }
      return false
    }
    if (e.seq < expected) return fail(e.seq, `event ${e.seq} comes after event ${this.prev.seq}: events were reordered`)
    if (e.seq > expected) return fail(expected, `event ${expected} is missing (removed); the next one found is ${e.seq}`)
    if (e.prevHash !== this.prev.hash) return fail(e.seq, `event ${e.seq} does not follow the event before it (an event was removed or reordered before it)`)
    if (eventHash(e.seq, e, e.prevHash) !== e.hash) return fail(e.seq, `event ${e.seq} was altered: its content does not match its hash`)
    this.checked++
    this.prev = { seq: e.seq, hash: e.hash }
    return true
  }

  result(): Verification {
    return this.failure ?? { ok: true, checked: this.checked, head: this.prev }
  }
}
