/**
 * Refresh tokens and their states (spec, "States and transitions"): stored as a SHA-256 lookup
 * hash only, grouped in families (one login = one family), with an idle expiry counted from the
 * last use and used/revoked marks.
 *
 *   login               → active (new family)
 *   refresh, keep       → active, same token, idle timer restarts        (original generation)
 *   refresh, rotate     → used; a successor joins the family             (6.1 and later)
 *   used token again    → the whole family is revoked; only with a reuse grace set (off by
 *                         default) is the successor pair answered again within it
 *   idle past expiresIn → expired;  revoke → the whole family is revoked
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { newId, randomToken, seal, secretHash, unseal } from './secrets.js'
import type { Clock } from './types.js'

interface TokenRow {
  id: string
  user_id: string
  family_id: string
  expires_at: number
  used_at: number | null
  successor_sealed: string | null
  revoked_at: number | null
}

export interface RefreshSettings {
  /** Idle lifetime in seconds. */
  expiresIn: number
  /** Length of the token string. */
  length: number
  /** Seconds during which a rotated token is answered with its successor instead of killing the family. */
  reuseGraceSeconds: number
}

export type RefreshOutcome =
  | { ok: true; userId: string; familyId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' }

export class RefreshTokenStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: RefreshSettings,
  ) {}

  private async insert(tx: Queryable, userId: string, familyId: string, now: number): Promise<{ id: string; token: string }> {
    const token = randomToken(this.settings.length)
    const id = newId()
    await tx.query(
      `INSERT INTO identity.refresh_tokens (id, token_hash, user_id, family_id, created_at, last_used_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $5, $6)`,
      [id, secretHash(token), userId, familyId, now, now + this.settings.expiresIn * 1000],
    )
    return { id, token }
  }

  /** Starts a family for a login. */
  async issue(userId: string): Promise<{ refreshToken: string; familyId: string }> {
    const familyId = newId()
    const { token } = await this.insert(this.db, userId, familyId, this.clock())
    return { refreshToken: token, familyId }
  }

  /** Uses a token to refresh: keeps it (restarting its idle timer) or rotates it. */
  async refresh(token: string, rotate: boolean): Promise<RefreshOutcome> {
    const now = this.clock()
    return this.db.transaction(async (tx): Promise<RefreshOutcome> => {
      const { rows } = await tx.query<TokenRow>(
        `SELECT id, user_id, family_id, expires_at, used_at, successor_sealed, revoked_at
         FROM identity.refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
        [secretHash(token)],
      )
      const row = rows[0]
      if (!row) return { ok: false, reason: 'unknown' }
      if (row.revoked_at !== null) return { ok: false, reason: 'revoked' }
      if (row.used_at !== null) return this.reuse(tx, row, token, now)
      if (row.expires_at <= now) return { ok: false, reason: 'expired' }
      if (!rotate) {
        await tx.query('UPDATE identity.refresh_tokens SET last_used_at = $2, expires_at = $3 WHERE id = $1', [
          row.id,
          now,
          now + this.settings.expiresIn * 1000,
        ])
        return { ok: true, userId: row.user_id, familyId: row.family_id, refreshToken: token }
      }
      const next = await this.insert(tx, row.user_id, row.family_id, now)
      await tx.query('UPDATE identity.refresh_tokens SET used_at = $2, last_used_at = $2, replaced_by = $3, successor_sealed = $4 WHERE id = $1', [
        row.id,
        now,
        next.id,
        seal(next.token, token),
      ])
      return { ok: true, userId: row.user_id, familyId: row.family_id, refreshToken: next.token }
    })
  }

  /** A rotated token presented again. */
  private async reuse(tx: Queryable, row: TokenRow, token: string, now: number): Promise<RefreshOutcome> {
    const grace = this.settings.reuseGraceSeconds * 1000
    if (grace > 0 && row.successor_sealed !== null && now - row.used_at! <= grace) {
      const successor = unseal(row.successor_sealed, token)
      if (successor !== null) {
        const { rows } = await tx.query<{ id: string }>(
          `SELECT id FROM identity.refresh_tokens
           WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
          [secretHash(successor), now],
        )
        if (rows[0]) return { ok: true, userId: row.user_id, familyId: row.family_id, refreshToken: successor }
      }
    }
    await this.revokeFamilyIn(tx, row.family_id, now)
    return { ok: false, reason: 'reused' }
  }

  private async revokeFamilyIn(tx: Queryable, familyId: string, now: number): Promise<void> {
    await tx.query(
      'UPDATE identity.refresh_tokens SET revoked_at = coalesce(revoked_at, $2), successor_sealed = NULL WHERE family_id = $1',
      [familyId, now],
    )
    // A revoked session asks its provider nothing any more: its tokens are forgotten.
    await tx.query('DELETE FROM identity.provider_sessions WHERE family_id = $1', [familyId])
  }

  /** Revokes the family of a token (DELETE auth/token). False when the token is unknown. */
  async revoke(token: string): Promise<boolean> {
    const { rows } = await this.db.query<{ family_id: string }>('SELECT family_id FROM identity.refresh_tokens WHERE token_hash = $1', [
      secretHash(token),
    ])
    if (!rows[0]) return false
    await this.revokeFamilyIn(this.db, rows[0].family_id, this.clock())
    return true
  }

  /** Revokes one family (logout). */
  async revokeFamily(familyId: string): Promise<void> {
    await this.revokeFamilyIn(this.db, familyId, this.clock())
  }

  /** Family of a token, when it is known. */
  /** The user a refresh token belongs to (used or not), without touching it; null for an unknown token. */
  async ownerOf(token: string): Promise<string | null> {
    const { rows } = await this.db.query<{ user_id: string }>('SELECT user_id FROM identity.refresh_tokens WHERE token_hash = $1', [secretHash(token)])
    return rows[0]?.user_id ?? null
  }

  /** When the login session of `family` began (its first token), or null when it is unknown. */
  async familyStartedAt(family: string): Promise<number | null> {
    const { rows } = await this.db.query<{ t: string | number | null }>('SELECT min(created_at) AS t FROM identity.refresh_tokens WHERE family_id = $1', [family])
    const t = rows[0]?.t
    return t === null || t === undefined ? null : Number(t)
  }

  async familyOf(token: string): Promise<string | null> {
    const { rows } = await this.db.query<{ family_id: string }>('SELECT family_id FROM identity.refresh_tokens WHERE token_hash = $1', [
      secretHash(token),
    ])
    return rows[0]?.family_id ?? null
  }

  /**
   * Deletes families in which no token can be used any more (each one revoked, used or expired)
   * and nothing happened for a day: reuse detection has nothing left to protect there.
   */
  async prune(): Promise<number> {
    const now = this.clock()
    const { rowCount } = await this.db.query(
      `DELETE FROM identity.refresh_tokens WHERE family_id IN (
         SELECT family_id FROM identity.refresh_tokens GROUP BY family_id
         HAVING bool_and(revoked_at IS NOT NULL OR used_at IS NOT NULL OR expires_at <= $1) AND max(last_used_at) < $2)`,
      [now, now - 86_400_000],
    )
    return rowCount
  }
}
