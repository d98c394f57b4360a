/**
 * API keys: stored as a SHA-256 lookup hash only (the key is shown once, at creation), with a
 * description, the granted scopes, an optional expiry and usage figures.
 */
import type { Db } from '../../shared/db/index.js'
import type { Scope } from '../../shared/manifest.js'
import { ApiError } from '../../shared/errors.js'
import { newId, randomToken, secretHash } from './secrets.js'
import { onlyScopes } from './users.js'
import type { ApiKey, Clock, IdentityEvent } from './types.js'

interface KeyRow {
  id: string
  user_id: string
  username: string
  description: string
  scopes: string[]
  expires_at: number | null
  last_used_at: number | null
  usage_count: number
  created_at: number
}

/** Prefix that makes our keys recognisable to secret scanners. */
export const API_KEY_PREFIX = 'nik_'

const SELECT = `SELECT k.id, k.user_id, u.username, k.description, k.scopes, k.expires_at, k.last_used_at, k.usage_count, k.created_at
  FROM identity.api_keys k JOIN identity.users u ON u.id = k.user_id`

function toKey(r: KeyRow): ApiKey {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    description: r.description,
    scopes: onlyScopes(r.scopes),
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    usageCount: r.usage_count,
    createdAt: r.created_at,
  }
}

export interface NewApiKey {
  userId: string
  scopes: readonly Scope[]
  description?: string
  expiresAt?: number | null
  /** A key string chosen by the caller (settable only at creation); generated when absent. */
  key?: string
}

export class ApiKeyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly notify: (e: IdentityEvent) => void,
  ) {}

  /** Creates a key; the returned `key` is the only time the secret exists outside its holder. */
  async create(k: NewApiKey): Promise<{ apiKey: ApiKey; key: string }> {
    const key = k.key ?? API_KEY_PREFIX + randomToken(43)
    const id = newId()
    try {
      await this.db.query(
        `INSERT INTO identity.api_keys (id, user_id, key_hash, description, scopes, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, k.userId, secretHash(key), k.description ?? '', onlyScopes(k.scopes), k.expiresAt ?? null, this.clock()],
      )
    } catch (err) {
      if ((err as { code?: unknown }).code === '23505') throw new ApiError('API_CONFLICT', 'That API key cannot be used')
      throw err
    }
    return { apiKey: (await this.byId(id))!, key }
  }

  async byHash(hash: string): Promise<ApiKey | null> {
    const { rows } = await this.db.query<KeyRow>(`${SELECT} WHERE k.key_hash = $1`, [hash])
    return rows[0] ? toKey(rows[0]) : null
  }

  async byId(id: string): Promise<ApiKey | null> {
    const { rows } = await this.db.query<KeyRow>(`${SELECT} WHERE k.id = $1`, [id])
    return rows[0] ? toKey(rows[0]) : null
  }

  /** All keys, or the keys of one user. */
  async list(userId?: string): Promise<ApiKey[]> {
    const { rows } = userId
      ? await this.db.query<KeyRow>(`${SELECT} WHERE k.user_id = $1 ORDER BY k.created_at, k.id`, [userId])
      : await this.db.query<KeyRow>(`${SELECT} ORDER BY k.created_at, k.id`)
    return rows.map(toKey)
  }

  async update(id: string, patch: { scopes?: readonly Scope[]; description?: string }): Promise<ApiKey | null> {
    const { rowCount } = await this.db.query(
      `UPDATE identity.api_keys SET scopes = coalesce($2, scopes), description = coalesce($3, description) WHERE id = $1`,
      [id, patch.scopes ? onlyScopes(patch.scopes) : null, patch.description ?? null],
    )
    if (rowCount === 0) return null
    this.notify({ type: 'apiKey', id })
    return this.byId(id)
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM identity.api_keys WHERE id = $1', [id])
    if (rowCount > 0) this.notify({ type: 'apiKey', id })
    return rowCount > 0
  }

  /** Adds usage counted in memory (see UsageRecorder): one statement for many keys. */
  async addUsage(batch: ReadonlyArray<{ id: string; count: number; lastUsedAt: number }>): Promise<void> {
    if (batch.length === 0) return
    await this.db.query(
      `UPDATE identity.api_keys k SET usage_count = k.usage_count + b.n, last_used_at = greatest(coalesce(k.last_used_at, 0), b.at)
       FROM unnest($1::text[], $2::int8[], $3::int8[]) AS b(id, n, at) WHERE k.id = b.id`,
      [batch.map((b) => b.id), batch.map((b) => b.count), batch.map((b) => b.lastUsedAt)],
    )
  }
}
