/**
 * Access tokens: JWTs (jose) signed RS256 (or ES256 with an EC key) with a `kid` header.
 * Verification takes the key by `kid` and accepts only that key's own algorithm (from the
 * allow-list RS256/ES256: no `none`, no HMAC, no algorithm confusion), and checks signature, `exp`, `aud`, `iss` and the payload's types, and is cached until min(exp, TTL).
 */
import { SignJWT, jwtVerify, type JWTPayload } from 'jose'
import { ApiError } from '../../shared/errors.js'
import { then, type Maybe } from '../../shared/maybe.js'
import { SCOPES, type Scope } from '../../shared/manifest.js'
import type { Clock } from '../identity/index.js'
import { VerificationCache } from './cache.js'
import { JWT_ALGORITHMS, type SigningKey } from './keys.js'
import { secretHash } from '../identity/index.js'

/** How far a token's `iat` may lie ahead of this clock (replicas' clocks differ a little). */
const IAT_SKEW_MS = 60_000

export interface AccessClaims {
  id: string
  username: string
  scope: Scope[]
  eula: boolean
  isAdmin: boolean
  /** Refresh-token family of the login that issued the token (logout revokes it). */
  sid?: string
  exp: number
  iat: number
  aud: string
  iss: string
}

export interface JwtSettings {
  issuer: string
  audience: string
  /** Access token lifetime in seconds. */
  expiresIn: number
}

export class AccessTokens {
  private readonly cache: VerificationCache<AccessClaims>

  constructor(
    private readonly key: SigningKey,
    private readonly settings: JwtSettings,
    private readonly clock: Clock,
    cache: { max: number; ttlMs: () => number },
  ) {
    this.cache = new VerificationCache(cache.max, cache.ttlMs, clock)
  }

  async sign(user: { id: string; username: string; scopes: readonly Scope[]; isAdmin: boolean }, sid?: string): Promise<{ token: string; exp: number }> {
    const iat = Math.floor(this.clock() / 1000)
    const exp = iat + this.settings.expiresIn
    const token = await new SignJWT({
      id: user.id,
      username: user.username,
      scope: [...user.scopes],
      eula: true,
      isAdmin: user.isAdmin,
      ...(sid ? { sid } : {}),
    })
      .setProtectedHeader({ alg: this.key.alg, typ: 'JWT', kid: this.key.kid })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setAudience(this.settings.audience)
      .setIssuer(this.settings.issuer)
      .sign(this.key.privateKey)
    return { token, exp }
  }

  /** Verified claims; 401 API_EXPIRED_ACCESS_TOKEN or API_INVALID_ACCESS_TOKEN otherwise. */
  async verify(token: string): Promise<AccessClaims> {
    return this.claims(token)
  }

  /** verify() for the hot path: the claims at once when cached (may throw synchronously). */
  claims(token: string): Maybe<AccessClaims> {
    const cached = this.cache.current(secretHash(token), async () => {
      const c = await this.verifyUncached(token)
      return { value: c, until: c.exp * 1000, userId: c.id }
    })
    return then(cached, (claims) => {
      if (claims.exp * 1000 <= this.clock()) throw new ApiError('API_EXPIRED_ACCESS_TOKEN')
      return claims
    })
  }

  private async verifyUncached(token: string): Promise<AccessClaims> {
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(
        token,
        (header) => {
          const vk = header.kid === undefined ? undefined : this.key.verification.get(header.kid)
          if (!vk || header.alg !== vk.alg) throw new ApiError('API_INVALID_ACCESS_TOKEN')
          return vk.key
        },
        {
          algorithms: [...JWT_ALGORITHMS],
          issuer: this.settings.issuer,
          audience: this.settings.audience,
          currentDate: new Date(this.clock()),
          requiredClaims: ['exp', 'iat', 'iss', 'aud'],
        },
      ))
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ERR_JWT_EXPIRED') throw new ApiError('API_EXPIRED_ACCESS_TOKEN')
      throw new ApiError('API_INVALID_ACCESS_TOKEN')
    }
    // A token is never issued later than now: beyond the clocks' skew one is forged or minted with
    // a wrong clock, and would outlive the lifetime it claims.
    if (typeof payload.iat !== 'number' || payload.iat * 1000 > this.clock() + IAT_SKEW_MS) throw new ApiError('API_INVALID_ACCESS_TOKEN')
    return toClaims(payload)
  }

  invalidateUser(userId: string): void {
    this.cache.invalidate({ userId })
  }
}

function toClaims(p: JWTPayload): AccessClaims {
  const scope = p.scope
  if (
    typeof p.id !== 'string' ||
    typeof p.username !== 'string' ||
    !Array.isArray(scope) ||
    !scope.every((s) => (SCOPES as readonly unknown[]).includes(s)) ||
    typeof p.exp !== 'number' ||
    typeof p.iat !== 'number' ||
    typeof p.aud !== 'string' ||
    typeof p.iss !== 'string' ||
    (p.sid !== undefined && typeof p.sid !== 'string')
  ) {
    throw new ApiError('API_INVALID_ACCESS_TOKEN')
  }
  return {
    id: p.id,
    username: p.username,
    scope: scope as Scope[],
    eula: p.eula === true,
    isAdmin: p.isAdmin === true,
    ...(typeof p.sid === 'string' ? { sid: p.sid } : {}),
    exp: p.exp,
    iat: p.iat,
    aud: p.aud,
    iss: p.iss,
  }
}
