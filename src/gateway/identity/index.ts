/** The gateway's identity store: users, API keys, refresh tokens, sign-in addresses in the "identity" schema. */
import type { Db } from '../../shared/db/index.js'
import { ApiKeyStore } from './api-keys.js'
import { ProviderSessionStore } from './provider-sessions.js'
import { RefreshTokenStore, type RefreshSettings } from './refresh-tokens.js'
import { SignInAddressStore } from './sign-in-addresses.js'
import { UserStore } from './users.js'
import type { Clock, IdentityEvent } from './types.js'

export { migrateIdentity, IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from './migrations.js'
export { ensureAdmin } from './bootstrap.js'
export { UsageRecorder } from './usage.js'
export { UserStore, onlyScopes, type NewUser, type UserPatch } from './users.js'
export { ApiKeyStore, API_KEY_PREFIX, type NewApiKey } from './api-keys.js'
export { customKeyProblem, estimatedKeyBits, MIN_CUSTOM_KEY_LENGTH } from '../../shared/secret-strength.js'
export { SignInAddressStore } from './sign-in-addresses.js'
export { RefreshTokenStore, type RefreshOutcome, type RefreshSettings } from './refresh-tokens.js'
export { ProviderSessionStore, type ProviderSession, type ProviderTokens } from './provider-sessions.js'
export { normalizeUsername, usernameProblem, usernameSkeleton } from './names.js'
export { hashPassword, verifyPassword, secretHash, randomToken, seal, unseal } from './secrets.js'
export type { User, ApiKey, IdentityEvent, Clock } from './types.js'

export interface IdentityStore {
  users: UserStore
  apiKeys: ApiKeyStore
  refreshTokens: RefreshTokenStore
  signInAddresses: SignInAddressStore
  providerSessions: ProviderSessionStore
}

export function createIdentityStore(
  db: Db,
  options: { clock: Clock; refresh: RefreshSettings; notify?: (e: IdentityEvent) => void },
): IdentityStore {
  const notify = options.notify ?? (() => {})
  return {
    users: new UserStore(db, options.clock, notify),
    apiKeys: new ApiKeyStore(db, options.clock, notify),
    refreshTokens: new RefreshTokenStore(db, options.clock, options.refresh),
    signInAddresses: new SignInAddressStore(db),
    providerSessions: new ProviderSessionStore(db, options.clock),
  }
}
