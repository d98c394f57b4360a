/**
 * Who is calling: API key, Basic, Bearer or the accessToken cookie, each verified through a cache
 * so that no key derivation and no signature check runs on the hot path. Effective scopes always
 * follow the owner's current scopes (a key's: its scopes ∩ the owner's; a token's: its scope ∩
 * the user's), and the caches drop what a revocation event touches.
 */
import type { Config } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import { then, type Maybe } from '../../shared/maybe.js'
import type { Principal } from '../../shared/principal.js'
import type { ApiKey, Clock, IdentityStore, UsageRecorder, User } from '../identity/index.js'
import { secretHash } from '../identity/index.js'
import { VerificationCache, type Cached } from './cache.js'
import type { Credentials } from './credentials.js'
import type { AccessTokens } from './jwt.js'
import type { PasswordChecks } from './passwords.js'

export interface AuthenticatorDeps {
  store: IdentityStore
  tokens: AccessTokens
  usage: UsageRecorder
  passwords: PasswordChecks
  config: Readonly<Config>
  clock: Clock
  /** Current cache TTL (the configured one, capped while the revocation broadcast is down). */
  ttlMs: () => number
}

/** A user may act when it still exists, has a scope and approved the EULA. */
export function canAct(user: User | null): user is User {
  return user !== null && user.scopes.length > 0 && user.eulaApproved
}

/**
 * One principal object per verified credential (the cached key, Basic entry or token claims) and
 * version of its user: a busy credential gets the same frozen object every time, so the forwarder
 * encodes it once (see upstreams/headers.ts) instead of once per request. A new user or key object (changed,
 * reloaded, invalidated) makes a new principal.
 */
class PrincipalMemo<K extends object> {
  private readonly memo = new WeakMap<K, { user: User; variant: string; principal: Principal }>()

  get(key: K, user: User, variant: string, make: () => Principal): Principal {
    const m = this.memo.get(key)
    if (m && m.user === user && m.variant === variant) return m.principal
    const principal: Principal = Object.freeze(make())
    this.memo.set(key, { user, variant, principal })
    return principal
  }
}

export class Authenticator {
  private readonly byKey = new PrincipalMemo<ApiKey>()
  private readonly byBasic = new PrincipalMemo<{ userId: string }>()
  private readonly byToken = new PrincipalMemo<object>()
  private readonly users: VerificationCache<User | null>
  private readonly keys: VerificationCache<ApiKey | null>
  private readonly basic: VerificationCache<{ userId: string } | null>

  constructor(private readonly deps: AuthenticatorDeps) {
    const { cacheMax } = deps.config.auth
    this.users = new VerificationCache(cacheMax, deps.ttlMs, deps.clock)
    this.keys = new VerificationCache(cacheMax, deps.ttlMs, deps.clock)
    this.basic = new VerificationCache(cacheMax, deps.ttlMs, deps.clock)
  }

  /**
   * The principal of the credentials: at once when the caches it needs are warm (the hot path),
   * else a promise. Throws, synchronously or through the promise, the ApiError of a bad credential.
   * `connection`: the request's connection (the hash of the API key it last carried is reused).
   */
  principal(credentials: Credentials, from = '', connection?: object): Maybe<Principal> {
    switch (credentials.kind) {
      case 'apiKey':
        return this.apiKey(credentials.key, connection)
      case 'basic':
        return this.basicAuth(credentials.username, credentials.password, from)
      case 'bearer':
      case 'cookie':
        return this.accessToken(credentials.token, credentials.kind)
    }
  }

  /** The user as currently stored (cached; dropped on change). */
  async user(id: string): Promise<User | null> {
    return this.currentUser(id)
  }

  // The caches' loaders, made once (a closure per lookup would be one more object per request).
  private readonly loadUser = async (id: string): Promise<Cached<User | null>> => ({ value: await this.deps.store.users.byId(id), userId: id })
  private readonly loadKey = async (hash: string): Promise<Cached<ApiKey | null>> => {
    const k = await this.deps.store.apiKeys.byHash(hash)
    // A negative answer is never kept (until 0): the key may be created a moment later.
    return k ? { value: k, userId: k.userId, apiKeyId: k.id } : { value: null, until: 0 }
  }
  private readonly keyFound = (k: ApiKey | null): Maybe<Principal> => {
    if (!k) throw new ApiError('API_INVALID_API_TOKEN')
    if (k.expiresAt !== null && k.expiresAt <= this.deps.clock()) throw new ApiError('API_EXPIRED_API_TOKEN')
    const owner = this.currentUser(k.userId)
    return owner instanceof Promise ? owner.then((o) => this.keyPrincipal(k, o)) : this.keyPrincipal(k, owner)
  }

  /**
   * The hash of the last API key each connection carried: a client sends one key on its
   * connection, which is hashed once (the key is kept no longer than the connection that brought
   * it, whose buffers hold it anyway).
   */
  private readonly keyHashes = new WeakMap<object, { key: string; hash: string }>()

  private currentUser(id: string): Maybe<User | null> {
    return this.users.current(id, this.loadUser)
  }

  private apiKey(key: string, connection: object | undefined): Maybe<Principal> {
    let hash: string
    const known = connection === undefined ? undefined : this.keyHashes.get(connection)
    if (known !== undefined && known.key === key) hash = known.hash
    else {
      hash = secretHash(key)
      if (connection !== undefined) this.keyHashes.set(connection, { key, hash })
    }
    const found = this.keys.current(hash, this.loadKey)
    return found instanceof Promise ? found.then(this.keyFound) : this.keyFound(found)
  }

  private keyPrincipal(found: ApiKey, owner: User | null): Principal {
    if (!owner) throw new ApiError('API_INVALID_API_TOKEN')
    this.deps.usage.record(found.id)
    return this.byKey.get(found, owner, '', () => ({
      id: owner.id,
      username: owner.username,
      scopes: found.scopes.filter((s) => owner.scopes.includes(s)),
      // Administrator powers are beyond any scope: only a key that holds every scope of its
      // owner carries them (a key limited to [team] is no administrator).
      isAdmin: owner.isAdmin && owner.scopes.every((s) => found.scopes.includes(s)),
      method: 'apiKey',
      apiKeyId: found.id,
    }))
  }

  /** `from`: the client's address key (addresses with successful checks are preferred under load). */
  private basicAuth(username: string, password: string, from: string): Maybe<Principal> {
    if (!this.deps.config.app.enableLocalAuthentication) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
    const hash = secretHash(`basic\u0000${username}\u0000${password}`)
    const verified = this.basic.current(hash, async () => {
      // Counted and bounded like a login (passwords.ts): Basic is no way around the limits.
      const found = await this.deps.passwords.verify(username, password, from)
      return found?.user.isLocal ? { value: { userId: found.user.id }, userId: found.user.id } : { value: null, until: 0 }
    })
    return then(verified, (v) => then(v ? this.currentUser(v.userId) : null, (user) => this.basicPrincipal(v, user)))
  }

  private basicPrincipal(verified: { userId: string } | null, user: User | null): Principal {
    if (!verified || !user || user.scopes.length === 0) throw new ApiError('API_INVALID_CREDENTIALS')
    if (!user.eulaApproved) throw new ApiError('API_MISSING_EULA_APPROVAL')
    return this.byBasic.get(verified, user, '', () => ({ id: user.id, username: user.username, scopes: user.scopes, isAdmin: user.isAdmin, method: 'basic' }))
  }

  private accessToken(token: string, method: 'bearer' | 'cookie'): Maybe<Principal> {
    return then(this.deps.tokens.claims(token), (claims) =>
      then(this.currentUser(claims.id), (user) => {
        if (!canAct(user)) throw new ApiError('API_INVALID_ACCESS_TOKEN')
        // With local authentication off, the sessions of directory users go on; local users' stop.
        if (user.isLocal && !this.deps.config.app.enableLocalAuthentication) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
        return this.byToken.get(claims, user, method, () => ({
          id: user.id,
          username: user.username,
          scopes: claims.scope.filter((s) => user.scopes.includes(s)),
          isAdmin: claims.isAdmin && user.isAdmin,
          method,
        }))
      }),
    )
  }

  /** A user changed (scopes, password, deletion): drop everything that depends on it. */
  invalidateUser(userId: string): void {
    this.users.invalidate({ userId })
    this.keys.invalidate({ userId })
    this.basic.invalidate({ userId })
  }

  invalidateApiKey(apiKeyId: string): void {
    this.keys.invalidate({ apiKeyId })
  }
}
