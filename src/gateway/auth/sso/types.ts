/** What the single sign-on modules share. */
import type { Cluster, Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { Config } from '../../../shared/config/index.js'
import type { Clock, IdentityStore, ProviderSession, User } from '../../identity/index.js'

/** A completed login through a provider: the user, and the provider's session to keep. */
export interface SsoLogin {
  user: User
  session: ProviderSession
}

export interface SsoDeps {
  store: IdentityStore
  config: Readonly<Config>
  log: Logger
  clock: Clock
  redis?: Redis | Cluster | undefined
}
