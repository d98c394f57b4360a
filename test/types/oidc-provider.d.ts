/**
 * The part of oidc-provider (a devDependency, shipped without types) the single sign-on tests
 * use: a provider with static clients, accounts and claims, served through `callback()`.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  interface Account {
    accountId: string
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>
  }

  interface ProviderConfiguration {
    clients?: Array<Record<string, unknown>>
    findAccount?: (ctx: unknown, id: string) => Account | undefined | Promise<Account | undefined>
    claims?: Record<string, string[]>
    scopes?: string[]
    conformIdTokenClaims?: boolean
    pkce?: { required?: () => boolean }
    cookies?: { keys?: string[] }
    features?: Record<string, { enabled: boolean }>
    issueRefreshToken?: (ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }, source: unknown) => boolean | Promise<boolean>
  }

  export type ClientMetadata = Record<string, unknown>

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration)
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
  }
}
