/** An event of the audit trail, as recorded and as read back. */

export type AuditOutcome = 'success' | 'failure'

export interface AuditEvent {
  /** Milliseconds since the epoch. */
  at: number
  /** The user acting (for an API key: its owner), as id and name at the time; null when unknown. */
  actorId: string | null
  actorName: string | null
  /** How the actor authenticated: apiKey, basic, bearer, cookie, local, ldap; `anonymous` for none. */
  actorMethod: string
  /** The API key used, when one was. */
  apiKeyId: string | null
  requestId: string | null
  clientIp: string | null
  /** e.g. `auth.login`, `user.update`, `apiKey.delete`, `snapshot.lock`. */
  action: string
  /** What was acted on (a user, a key, a snapshot, an endpoint), or null. */
  target: string | null
  outcome: AuditOutcome
  /** Why it failed (an error code, a directory's answer), or null. */
  reason: string | null
  before: unknown
  after: unknown
}

export interface StoredAuditEvent extends AuditEvent {
  seq: number
  prevHash: string
  hash: string
}
