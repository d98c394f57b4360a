/**
 * The configured OpenID Connect providers and their discovered configuration (openid-client):
 * the discovery document gives the endpoints and the JWKS; it is fetched once per provider and
 * fetched again after a failure. The client secret is read from its file, never from api.json.
 */
import { readFile } from 'node:fs/promises'
import * as oidc from 'openid-client'
import type { Logger } from 'pino'
import type { Config, SsoProviderConfig } from '../../../shared/config/index.js'
import { ApiError } from '../../../shared/errors.js'
import { withReason } from '../../audit/index.js'

/** Where the provider sends the browser back: `<redirectBaseUrl>/api/auth/sso/<name>/callback`. */
export function callbackUrl(provider: SsoProviderConfig, name: string): string {
  return `${provider.redirectBaseUrl.replace(/\/+$/, '')}/api/auth/sso/${name}/callback`
}

/** A refused single sign-on: the answer's error, with the reason the audit trail records. */
export function refused(reason: string, message = 'The single sign-on did not complete; start again from the login page'): ApiError {
  return withReason(new ApiError('API_INVALID_CREDENTIALS', message), reason)
}

/** 503 with Retry-After: the provider (or what keeps pending logins) cannot be reached now. */
export function unavailable(message: string, reason: string): ApiError {
  return withReason(new ApiError('API_SERVICE_UNAVAILABLE', message, { headers: { 'retry-after': '30' } }), reason)
}

export class SsoProviders {
  private readonly discovered = new Map<string, Promise<oidc.Configuration>>()

  constructor(private readonly deps: { config: Readonly<Config>; log: Logger }) {}

  /** The configured provider of this name, else 404. */
  provider(name: string): SsoProviderConfig {
    const p = this.configured(name)
    if (!p) throw new ApiError('API_NOT_FOUND', `No single sign-on provider "${name}" is configured`)
    return p
  }

  /** The provider of this name when it is configured (issuer, client id and redirect base set). */
  configured(name: string): SsoProviderConfig | undefined {
    const p = Object.hasOwn(this.deps.config.sso.providers, name) ? this.deps.config.sso.providers[name] : undefined
    return p && p.issuer && p.clientId && p.redirectBaseUrl ? p : undefined
  }

  /** Names, display names and start addresses, for GET auth/providers. */
  list(): { name: string; displayName: string; start: string }[] {
    return Object.entries(this.deps.config.sso.providers)
      .filter(([, p]) => p.issuer && p.clientId && p.redirectBaseUrl)
      .map(([name, p]) => ({ name, displayName: p.displayName || name, start: `/api/auth/sso/${name}/start` }))
  }

  /** The provider's configuration from its discovery document (cached; a failure is tried again next time). */
  private configuration(name: string, p: SsoProviderConfig): Promise<oidc.Configuration> {
    const key = `${name}\n${p.issuer}\n${p.clientId}\n${p.clientSecretFile}`
    let found = this.discovered.get(key)
    if (!found) {
      found = (async () => {
        const secret = p.clientSecretFile ? ((await readFile(p.clientSecretFile, 'utf8')).split(/\r?\n/)[0] ?? '') : undefined
        const metadata: Partial<oidc.ClientMetadata> = { [oidc.clockTolerance]: p.clockToleranceSeconds }
        if (secret) metadata.client_secret = secret
        // The ID token's signature is checked by the provider's JWKS even though it comes straight
        // from the token endpoint (openid-client skips that unless told).
        const execute = p.allowInsecureHttp ? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests] : [oidc.enableNonRepudiationChecks]
        return oidc.discovery(new URL(p.issuer), p.clientId, metadata, secret ? undefined : oidc.None(), { execute })
      })()
      found.catch(() => this.discovered.delete(key))
      this.discovered.set(key, found)
    }
    return found
  }

  /** The provider's configuration, or a 503 when it cannot be reached. */
  async reach(name: string, p: SsoProviderConfig): Promise<oidc.Configuration> {
    try {
      return await this.configuration(name, p)
    } catch (err) {
      this.deps.log.warn({ provider: name, err: err instanceof Error ? err.message : String(err) }, 'the single sign-on provider is unavailable')
      throw unavailable(`The single sign-on provider "${name}" cannot be reached; try again later`, `provider ${name} unreachable`)
    }
  }
}

/** The provider's tokens worth keeping for a session (re-checks at refresh), from a token answer. */
export function keptTokens(answer: oidc.TokenEndpointResponse, now: number): { refreshToken?: string; accessToken?: string; accessExpiresAt?: number } {
  const kept: { refreshToken?: string; accessToken?: string; accessExpiresAt?: number } = {}
  if (answer.refresh_token) kept.refreshToken = answer.refresh_token
  if (answer.access_token) kept.accessToken = answer.access_token
  if (typeof answer.expires_in === 'number') kept.accessExpiresAt = now + answer.expires_in * 1000
  return kept
}
