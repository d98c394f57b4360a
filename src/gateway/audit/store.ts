/**
 * The audit trail in the identity database (`identity.audit_events`): appended in batches, each
 * batch under one lock so that the chain has one writer at a time across replicas; read back
 * whole for verification and by query for `tables/audit`; pruned with an anchor.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { ChainVerifier, eventHash, GENESIS_HASH, jsonOrNull, type Anchor, type Verification } from './chain.js'
import type { AuditEvent, StoredAuditEvent } from './types.js'

const CHAIN_LOCK = 0x61756474 // "audt"
const READ_BATCH = 1000

export interface AuditRow {
  seq: number
  at: number
  actor_id: string | null
  actor_name: string | null
  actor_method: string
  api_key_id: string | null
  request_id: string | null
  client_ip: string | null
  action: string
  target: string | null
  outcome: string
  reason: string | null
  before_json: string | null
  after_json: string | null
  prev_hash: string
  hash: string
}

export const AUDIT_COLUMNS = 'seq, at, actor_id, actor_name, actor_method, api_key_id, request_id, client_ip, action, target, outcome, reason, before_json, after_json, prev_hash, hash'

export function toStored(r: AuditRow): StoredAuditEvent {
  return {
    seq: Number(r.seq),
    at: Number(r.at),
    actorId: r.actor_id,
    actorName: r.actor_name,
    actorMethod: r.actor_method,
    apiKeyId: r.api_key_id,
    requestId: r.request_id,
    clientIp: r.client_ip,
    action: r.action,
    target: r.target,
    outcome: r.outcome === 'success' ? 'success' : 'failure',
    reason: r.reason,
    before: r.before_json === null ? null : (JSON.parse(r.before_json) as unknown),
    after: r.after_json === null ? null : (JSON.parse(r.after_json) as unknown),
    prevHash: r.prev_hash,
    hash: r.hash,
  }
}

export class AuditStore {
  constructor(private readonly db: Db) {}

  private async anchor(tx: Queryable = this.db): Promise<Anchor> {
    const { rows } = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM identity.audit_anchor WHERE id = 1')
    return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : { seq: 0, hash: GENESIS_HASH }
  }

  /** Appends `events` to the chain in one transaction; returns the stored events. */
  async append(events: readonly AuditEvent[]): Promise<StoredAuditEvent[]> {
    if (events.length === 0) return []
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK])
      const { rows } = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM identity.audit_events ORDER BY seq DESC LIMIT 1')
      let prev: Anchor = rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : await this.anchor(tx)
      const stored: StoredAuditEvent[] = []
      const params: unknown[] = []
      const values: string[] = []
      for (const e of events) {
        const seq = prev.seq + 1
        const hash = eventHash(seq, e, prev.hash)
        const row = [seq, e.at, e.actorId, e.actorName, e.actorMethod, e.apiKeyId, e.requestId, e.clientIp, e.action, e.target, e.outcome, e.reason, jsonOrNull(e.before), jsonOrNull(e.after), prev.hash, hash]
        values.push(`(${row.map((_, i) => `$${params.length + i + 1}`).join(', ')})`)
        params.push(...row)
        stored.push({ ...e, seq, prevHash: prev.hash, hash })
        prev = { seq, hash }
      }
      await tx.query(`INSERT INTO identity.audit_events (${AUDIT_COLUMNS}) VALUES ${values.join(', ')}`, params)
      return stored
    })
  }

  /** Walks the whole chain from the anchor in sequence order; names the first broken event. */
  async verify(): Promise<Verification> {
    const verifier = new ChainVerifier(await this.anchor())
    let after = -1
    for (;;) {
      const { rows } = await this.db.query<AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM identity.audit_events WHERE seq > $1 ORDER BY seq LIMIT ${READ_BATCH}`, [after])
      for (const r of rows) if (!verifier.add(toStored(r))) return verifier.result()
      if (rows.length < READ_BATCH) return verifier.result()
      after = Number(rows[rows.length - 1]!.seq)
    }
  }

  /**
   * Deletes the events older than `before` (ms), keeping the last deleted event's sequence number
   * and hash as the anchor that verification of the rest starts from. Returns how many went.
   */
  async prune(before: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK])
      // Never the newest event: it is the chain's head that the next append continues.
      const { rows } = await tx.query<{ seq: number; hash: string }>(
        `SELECT seq, hash FROM identity.audit_events WHERE at < $1 AND seq < (SELECT max(seq) FROM identity.audit_events) ORDER BY seq DESC LIMIT 1`,
        [before],
      )
      const last = rows[0]
      if (!last) return 0
      const { rowCount } = await tx.query('DELETE FROM identity.audit_events WHERE seq <= $1', [last.seq])
      await tx.query(
        'INSERT INTO identity.audit_anchor (id, seq, hash) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash',
        [last.seq, last.hash],
      )
      return rowCount
    })
  }

  async query<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return (await this.db.query<T>(sql, params)).rows
  }
}
