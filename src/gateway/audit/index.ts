/** The gateway's audit trail: recorder (request path), store and hash chain (verification, pruning). */
import type { ApiError } from '../../shared/errors.js'
import type { RequestContext } from '../context.js'
import type { AuditFields, AuditRecorder } from './recorder.js'

export { AuditRecorder, maskSecrets, type AuditFields, type AuditSource } from './recorder.js'
export { AuditStore } from './store.js'
export { ChainVerifier, eventHash, GENESIS_HASH, type Verification } from './chain.js'
export type { AuditEvent, StoredAuditEvent } from './types.js'

const reasons = new WeakMap<object, string>()

/** Marks why `err` happened, for the audit trail only (the answer stays the generic one). */
export function withReason<E extends ApiError>(err: E, reason: string): E {
  reasons.set(err, reason)
  return err
}

/** The reason marked on `err`, else its error code, else its message. */
export function reasonOf(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const marked = reasons.get(err)
    const code = (err as { code?: unknown }).code
    if (marked !== undefined) return typeof code === 'string' ? `${code}: ${marked}` : marked
    if (typeof code === 'string') return code
  }
  return err instanceof Error ? err.message : String(err)
}

/** Records an event of the request `ctx`. */
export function recordOf(audit: AuditRecorder, ctx: RequestContext, fields: AuditFields): void {
  audit.record({ requestId: ctx.requestId, clientIp: ctx.clientIp, principal: ctx.principal }, fields)
}
