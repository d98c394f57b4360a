/**
 * Tokens for upstreams with `jwt` identity: a short-lived JWT per caller and upstream, signed with
 * the gateway's own key (so a backend verifies it with GET /api/auth/jwks, trusting no shared
 * secret) and reused until shortly before it expires, so that a busy caller costs one signature
 * per token lifetime, not one per request.
 *
 * Claims: `sub` (the user id), `username`, `scopes` (array) and `scope` (the same, space-separated,
 * as RFC 9068 has it), `aud` (the upstream's name: a token meant for one upstream is refused by
 * another, and by the gateway itself, whose access tokens have the audience `app.jwt.audience`),
 * `iss` (`app.jwt.issuer`), `iat`, `exp`; `api_key` (the API key's id) when the caller used one.
 */
import { SignJWT } from 'jose'
import { LRUCache } from 'lru-cache'
import type { Maybe } from '../../shared/maybe.js'
import type { Principal } from '../../shared/principal.js'
import type { Clock } from '../identity/index.js'
import type { SigningKey } from './keys.js'

interface Minted {
  token: string
  /** Clock time (ms) from which a new token is minted instead. */
  renewAt: number
  ttlSeconds: number
}

/** One caller's tokens by audience; `minting`: the signature in progress, shared by concurrent requests. */
interface Tokens {
  minted: Map<string, Minted>
  minting: Map<string, Promise<string>>
}

export class UpstreamTokenMinter {
  /** Caller identity (a principal's id, key, admin flag and scopes) → its tokens. */
  private readonly byCaller: LRUCache<string, Tokens>
  /** A principal object (the authenticator hands out the same one while it caches a credential) → its identity key. */
  private readonly keys = new WeakMap<Principal, string>()

  constructor(
    private readonly key: SigningKey,
    private readonly issuer: string,
    private readonly clock: Clock,
    max = 10_000,
  ) {
    this.byCaller = new LRUCache({ max })
  }

  token(principal: Principal, audience: string, ttlSeconds: number): Maybe<string> {
    let id = this.keys.get(principal)
    if (id === undefined) {
      id = `${principal.id}|${principal.apiKeyId ?? ''}|${principal.isAdmin ? 1 : 0}|${principal.scopes.join(' ')}`
      this.keys.set(principal, id)
    }
    let tokens = this.byCaller.get(id)
    if (tokens === undefined) this.byCaller.set(id, (tokens = { minted: new Map(), minting: new Map() }))
    const minted = tokens.minted.get(audience)
    if (minted !== undefined && minted.ttlSeconds === ttlSeconds && this.clock() < minted.renewAt) return minted.token
    const inProgress = tokens.minting.get(audience)
    if (inProgress !== undefined) return inProgress
    const t = tokens
    const made = this.mint(principal, audience, ttlSeconds).then(
      (m) => {
        t.minted.set(audience, m)
        t.minting.delete(audience)
        return m.token
      },
      (err: unknown) => {
        t.minting.delete(audience)
        throw err
      },
    )
    tokens.minting.set(audience, made)
    return made
  }

  private async mint(p: Principal, audience: string, ttlSeconds: number): Promise<Minted> {
    const now = this.clock()
    const iat = Math.floor(now / 1000)
    const token = await new SignJWT({
      username: p.username,
      scopes: [...p.scopes],
      scope: p.scopes.join(' '),
      ...(p.apiKeyId !== undefined ? { api_key: p.apiKeyId } : {}),
    })
      .setProtectedHeader({ alg: this.key.alg, typ: 'JWT', kid: this.key.kid })
      .setSubject(p.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setAudience(audience)
      .setIssuer(this.issuer)
      .sign(this.key.privateKey)
    // Renewed a fifth of its lifetime (at most a minute) before it expires: a backend never sees
    // one about to expire, whatever its clock skew within that margin.
    const margin = Math.min(60, ttlSeconds / 5) * 1000
    return { token, renewAt: (iat + ttlSeconds) * 1000 - margin, ttlSeconds }
  }
}
