/**
 * Records audit events without holding up the request that caused them: `record` only queues;
 * the queue is written in one transaction every `flushMs` (or at once when `batchMax` are
 * waiting), and each written event then gets one log line (`audit` with its sequence number and
 * hash) for a SIEM. A failed write is retried at the next flush; past `queueMax` waiting events
 * the oldest are logged in full as not stored (never silently lost).
 */
import type { Logger } from 'pino'
import type { Principal } from '../../shared/principal.js'
import type { AuditStore } from './store.js'
import type { AuditEvent, AuditOutcome } from './types.js'

export interface AuditOptions {
  flushMs?: number
  batchMax?: number
  queueMax?: number
}

/** What a request knows about itself, for the event. */
export interface AuditSource {
  requestId?: string | undefined
  clientIp?: string | undefined
  principal?: Principal | null | undefined
}

export interface AuditFields {
  action: string
  target?: string | null
  outcome?: AuditOutcome
  reason?: string | null
  before?: unknown
  after?: unknown
  /** The actor when the request has no principal (a login: the user who logged in). */
  actor?: { id: string | null; name: string | null; method: string }
}

const SECRET_KEY = /pass(word)?|secret|token|key$|credential|community/i

/** A copy of `value` with every secret-looking field replaced by "***". */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v !== null && v !== '' ? '***' : maskSecrets(v, depth + 1)
  return out
}

export class AuditRecorder {
  private queue: AuditEvent[] = []
  private timer: NodeJS.Timeout | undefined
  private writing: Promise<void> | undefined
  private readonly flushMs: number
  private readonly batchMax: number
  private readonly queueMax: number

  constructor(
    private readonly store: AuditStore,
    private readonly log: Logger,
    private readonly clock: () => number,
    options: AuditOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 200
    this.batchMax = options.batchMax ?? 500
    this.queueMax = options.queueMax ?? 100_000
  }

  record(source: AuditSource, fields: AuditFields): void {
    const p = source.principal
    const actor = fields.actor ?? (p ? { id: p.id, name: p.username, method: p.method } : { id: null, name: null, method: 'anonymous' })
    this.queue.push({
      at: this.clock(),
      actorId: actor.id,
      actorName: actor.name,
      actorMethod: actor.method,
      apiKeyId: p?.apiKeyId ?? null,
      requestId: source.requestId ?? null,
      clientIp: source.clientIp ?? null,
      action: fields.action,
      target: fields.target ?? null,
      outcome: fields.outcome ?? 'success',
      reason: fields.reason ?? null,
      before: maskSecrets(fields.before ?? null),
      after: maskSecrets(fields.after ?? null),
    })
    if (this.queue.length > this.queueMax) {
      for (const lost of this.queue.splice(0, this.queue.length - this.queueMax)) this.log.error({ audit: lost }, 'audit event not stored: the audit queue is full')
    }
    if (this.queue.length >= this.batchMax) void this.flush()
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs)
  }

  /** Writes what is queued (and waits for a write under way). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    while (this.writing) await this.writing
    if (this.queue.length === 0) return
    const batch = this.queue.splice(0, this.batchMax)
    this.writing = this.store
      .append(batch)
      .then((stored) => {
        for (const e of stored) this.log.info({ audit: e }, 'audit')
      })
      .catch((err: unknown) => {
        this.log.warn({ err, events: batch.length }, 'writing audit events failed; retrying')
        this.queue.unshift(...batch)
        this.timer ??= setTimeout(() => void this.flush(), Math.max(this.flushMs, 1000))
      })
      .finally(() => {
        this.writing = undefined
      })
    await this.writing
    if (this.queue.length >= this.batchMax) await this.flush()
  }

  async close(): Promise<void> {
    await this.flush()
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}
