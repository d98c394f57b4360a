/**
 * What a single sign-on provider gave a netinv session (one refresh-token family): its tokens, by
 * which a refresh asks the provider about the user again. They are sealed (AES-256-GCM) under the
 * session's current netinv refresh token, which the gateway keeps only as a hash: the database
 * alone opens none of them, and each refresh seals them again under the token it hands out.
 * Revoking a family forgets its provider session (refresh-tokens.ts).
 */
import type { Db } from '../../shared/db/index.js'
import { seal, unseal } from './secrets.js'
import type { Clock } from './types.js'

/** The provider's tokens for one session. */
export interface ProviderTokens {
  refreshToken?: string
  accessToken?: string
  /** Clock time (ms) at which the access token expires; absent when the provider did not say. */
  accessExpiresAt?: number
}

export interface ProviderSession {
  provider: string
  subject: string
  tokens: ProviderTokens
}

export class ProviderSessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Keeps (or replaces) the provider session of `familyId`, sealed under `refreshToken`. */
  async put(familyId: string, refreshToken: string, session: ProviderSession): Promise<void> {
    await this.db.query(
      `INSERT INTO identity.provider_sessions (family_id, provider, subject, tokens_sealed, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (family_id) DO UPDATE SET provider = EXCLUDED.provider, subject = EXCLUDED.subject, tokens_sealed = EXCLUDED.tokens_sealed, updated_at = EXCLUDED.updated_at`,
      [familyId, session.provider, session.subject, seal(JSON.stringify(session.tokens), refreshToken), this.clock()],
    )
  }

  /**
   * The provider session of `familyId`, opened with `refreshToken`: null when there is none,
   * `sealed` when it exists but this token does not open it (a rotated or foreign token).
   */
  async get(familyId: string, refreshToken: string): Promise<ProviderSession | null | 'sealed'> {
    const { rows } = await this.db.query<{ provider: string; subject: string; tokens_sealed: string }>(
      'SELECT provider, subject, tokens_sealed FROM identity.provider_sessions WHERE family_id = $1',
      [familyId],
    )
    const row = rows[0]
    if (!row) return null
    const plain = unseal(row.tokens_sealed, refreshToken)
    if (plain === null) return 'sealed'
    return { provider: row.provider, subject: row.subject, tokens: JSON.parse(plain) as ProviderTokens }
  }

  /** Forgets the provider sessions whose netinv family is gone (pruned). */
  async prune(): Promise<number> {
    const { rowCount } = await this.db.query(
      'DELETE FROM identity.provider_sessions p WHERE NOT EXISTS (SELECT 1 FROM identity.refresh_tokens r WHERE r.family_id = p.family_id AND r.revoked_at IS NULL)',
    )
    return rowCount
  }
}
