/**
 * The (username, client address) pairs whose password check passed lately, kept in the identity
 * schema so that every replica, and a restarted one, still knows where a user signs in from. A
 * pair is a hash of the username and the address (see auth/passwords.ts): neither is stored.
 */
import type { Db } from '../../shared/db/index.js'

/** Rows older than the cutoff removed by one write, so that no write does unbounded work. */
const PRUNE_BATCH = 100

export class SignInAddressStore {
  constructor(private readonly db: Db) {}

  /** Whether `pair` passed a password check at or after `since` (ms). */
  async isTrusted(pair: string, since: number): Promise<boolean> {
    const { rows } = await this.db.query<{ one: number }>(
      'SELECT 1 AS one FROM identity.sign_in_addresses WHERE pair = $1 AND seen_at >= $2',
      [pair, since],
    )
    return rows.length > 0
  }

  /** Records that `pair` passed a password check at `at` (ms); drops a bounded batch of pairs seen before `forgetBefore`. */
  async remember(pair: string, at: number, forgetBefore: number): Promise<void> {
    await this.db.query(
      `INSERT INTO identity.sign_in_addresses (pair, seen_at) VALUES ($1, $2)
       ON CONFLICT (pair) DO UPDATE SET seen_at = GREATEST(identity.sign_in_addresses.seen_at, EXCLUDED.seen_at)`,
      [pair, at],
    )
    await this.db.query(
      `DELETE FROM identity.sign_in_addresses WHERE pair IN (
         SELECT pair FROM identity.sign_in_addresses WHERE seen_at < $1 ORDER BY seen_at LIMIT ${PRUNE_BATCH})`,
      [forgetBefore],
    )
  }
}
