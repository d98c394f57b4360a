/**
 * The device authorization grant (RFC 8628) for the command line, run by the gateway so that the
 * client secret never leaves it: `start` asks the provider for a device code (kept here, under a
 * random handle the client polls with) and answers the user code and the address to enter it at;
 * each `poll` asks the provider's token endpoint once (never faster than the provider's interval,
 * which `slow_down` raises) and answers "pending" until the person has logged in there, then the
 * user of the ID token (accounts.ts), as the browser login does. The handle is taken for each poll
 * and put back while pending, so a finished or failed login cannot be polled again.
 */
import type { DeviceStart } from '../../../shared/sso-device.js'
import * as oidc from 'openid-client'
import { ApiError } from '../../../shared/errors.js'
import { randomToken } from '../../identity/index.js'
import { userOfClaims } from './accounts.js'
import { pendingDo, pendingStore, type Expiring, type PendingStore } from './pending.js'
import { keptTokens, refused, unavailable, type SsoProviders } from './providers.js'
import type { SsoDeps, SsoLogin } from './types.js'

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

interface PendingDevice extends Expiring {
  provider: string
  deviceCode: string
  /** Seconds between two questions to the provider. */
  interval: number
  /** Clock time (ms) before which the provider is not asked again. */
  nextPollAt: number
}

export type DevicePoll = { pending: true; interval: number } | SsoLogin

const GONE = 'The device login is unknown, expired or already finished; run netinv login --sso again'

export class DeviceLogins {
  private readonly pending: PendingStore<PendingDevice>

  constructor(
    private readonly deps: SsoDeps,
    private readonly providers: SsoProviders,
  ) {
    this.pending = pendingStore<PendingDevice>('device', deps.clock, deps.redis)
  }

  async start(name: string): Promise<DeviceStart> {
    const p = this.providers.provider(name)
    const config = await this.providers.reach(name, p)
    if (!config.serverMetadata().device_authorization_endpoint) {
      throw new ApiError('API_NOT_FOUND', `The single sign-on provider "${name}" offers no device login (its discovery document has no device_authorization_endpoint); log in through the web interface or with an API key`)
    }
    let answer: oidc.DeviceAuthorizationResponse
    try {
      answer = await oidc.initiateDeviceAuthorization(config, { scope: [...new Set(['openid', ...p.scopes])].join(' ') })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      this.deps.log.warn({ provider: name, err: message }, 'the provider refused to start a device login')
      if (err instanceof oidc.ResponseBodyError && err.status < 500) throw refused(`provider error at device authorization: ${err.error}`, `The single sign-on provider refused the device login (${err.error.slice(0, 64)})`)
      throw unavailable(`The single sign-on provider "${name}" cannot be reached; try again later`, `provider ${name} unreachable (device authorization)`)
    }
    const now = this.deps.clock()
    const interval = Math.max(1, answer.interval ?? 5)
    const deviceRequest = randomToken(43)
    const entry: PendingDevice = { provider: name, deviceCode: answer.device_code, interval, nextPollAt: now + interval * 1000, expiresAt: now + answer.expires_in * 1000 }
    await pendingDo(this.deps.log, this.pending, (s) => s.put(deviceRequest, entry))
    const started: DeviceStart = { deviceRequest, userCode: answer.user_code, verificationUri: answer.verification_uri, expiresIn: answer.expires_in, interval }
    if (answer.verification_uri_complete) started.verificationUriComplete = answer.verification_uri_complete
    return started
  }

  async poll(name: string, deviceRequest: string): Promise<DevicePoll> {
    const entry = await pendingDo(this.deps.log, this.pending, (s) => s.take(deviceRequest))
    if (!entry) throw refused('unknown, expired or finished device login', GONE)
    if (entry.provider !== name) throw refused(`device login of provider ${entry.provider} polled at ${name}`, GONE)
    const now = this.deps.clock()
    const wait = async (interval: number): Promise<DevicePoll> => {
      await pendingDo(this.deps.log, this.pending, (s) => s.put(deviceRequest, { ...entry, interval, nextPollAt: now + interval * 1000 }))
      return { pending: true, interval }
    }
    if (now < entry.nextPollAt) {
      await pendingDo(this.deps.log, this.pending, (s) => s.put(deviceRequest, entry))
      return { pending: true, interval: entry.interval }
    }
    const p = this.providers.provider(name)
    const config = await this.providers.reach(name, p)
    let answer: Awaited<ReturnType<typeof oidc.genericGrantRequest>>
    let claims: oidc.IDToken | undefined
    try {
      answer = await oidc.genericGrantRequest(config, DEVICE_CODE_GRANT, { device_code: entry.deviceCode })
      claims = answer.claims()
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError && err.status < 500) {
        if (err.error === 'authorization_pending') return wait(entry.interval)
        if (err.error === 'slow_down') return wait(entry.interval + 5)
        if (err.error === 'access_denied') throw refused('provider error: access_denied (device login)', 'The login was refused at the single sign-on provider')
        if (err.error === 'expired_token') throw refused('provider error: expired_token (device login)', 'The code expired before the login at the provider; run netinv login --sso again')
        throw refused(`provider error: ${err.error} (device login)`, `The single sign-on provider refused the login (${err.error.slice(0, 64)})`)
      }
      if (err instanceof oidc.ClientError && !(err.cause instanceof Response && err.cause.status >= 500)) {
        const message = err.message.slice(0, 200)
        this.deps.log.info({ provider: name, reason: message }, 'single sign-on refused')
        throw refused(`the provider's answer failed its checks: ${message}`)
      }
      // Not the provider's answer: the login stays pending, the client asks again later.
      await wait(entry.interval)
      throw unavailable(`The single sign-on provider "${name}" cannot be reached; try again later`, `provider ${name} unreachable (device login)`)
    }
    if (!claims) throw refused('the provider answered no ID token (device login)')
    const user = await userOfClaims(this.deps.store, name, p, claims)
    return { user, session: { provider: name, subject: claims.sub, tokens: keptTokens(answer, this.deps.clock()) } }
  }
}
