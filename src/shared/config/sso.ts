/**
 * `sso` of api.json: OpenID Connect providers people log in with (authorization code flow with
 * PKCE, state and nonce; docs/authentication.md, "Single sign-on"). One entry per provider, keyed
 * by the name that appears in the addresses `auth/sso/<name>/start` and `.../callback`.
 */
import type { SchemaNode } from './schema-types.js'

export interface SsoGroupMapping {
  scopes: string[]
  isAdmin: boolean
}

export interface SsoProviderConfig {
  displayName: string
  issuer: string
  clientId: string
  clientSecretFile: string
  scopes: string[]
  usernameClaim: string
  groupsClaim: string
  groups: Record<string, SsoGroupMapping>
  redirectBaseUrl: string
  reauthenticateAfterSeconds: number
  clockToleranceSeconds: number
  eulaApproved: boolean
  allowInsecureHttp: boolean
}

export interface SsoConfig {
  stateTtlSeconds: number
  providers: Record<string, SsoProviderConfig>
}

const SCOPE = /^(read|settings|team|write)$/

export const SSO_SCHEMA = {
  type: 'object',
  description: 'Single sign-on with OpenID Connect providers (see docs/authentication.md, "Single sign-on").',
  properties: {
    stateTtlSeconds: {
      type: 'integer',
      default: 600,
      min: 30,
      max: 3600,
      description: 'How long a started login (its state, nonce and PKCE verifier, kept by the gateway) waits for the provider\'s answer; each is used once.',
    },
    providers: {
      type: 'record',
      default: {},
      keyPattern: /^[a-z0-9][a-z0-9-]{0,31}$/,
      expand: 'provider',
      description: 'OpenID Connect providers by name (lower-case letters, digits, `-`): the name is part of the addresses `auth/sso/<name>/start` and `auth/sso/<name>/callback`.',
      values: {
        type: 'object',
        description: 'One OpenID Connect provider.',
        properties: {
          displayName: { type: 'string', default: '', description: 'Name a login page shows (GET auth/providers); empty: the provider\'s key.' },
          issuer: {
            type: 'string',
            default: '',
            pattern: /^(https?:\/\/\S+)?$/,
            description: 'The issuer URL; its discovery document (`/.well-known/openid-configuration`) gives the endpoints and the JWKS. Must equal the `iss` of the ID tokens.',
          },
          clientId: { type: 'string', default: '', description: 'The client id netinv is registered with at the provider.' },
          clientSecretFile: {
            type: 'string',
            default: '',
            description: 'File holding the client secret (first line; read when the provider is first used). Never in api.json, never logged. Empty: a public client (PKCE only).',
          },
          scopes: { type: 'stringList', default: ['openid', 'profile', 'email'], description: 'Scopes asked for (`openid` is always added); add the one that releases the groups claim where the provider needs it.' },
          usernameClaim: { type: 'string', default: 'preferred_username', description: 'Claim of the ID token holding the netinv username (`email` or `sub` work too).' },
          groupsClaim: { type: 'string', default: 'groups', description: 'Claim of the ID token holding the user\'s groups or roles: a list of strings (or one string). The provider must put it in the ID token (not only in userinfo).' },
          groups: {
            type: 'record',
            default: {},
            expand: 'group',
            description: 'Scopes given to the holders of a claim value (compared exactly). A user gets the union; a user with none is refused.',
            values: {
              type: 'object',
              description: 'What the holders of one claim value get.',
              properties: {
                scopes: { type: 'stringList', default: [], pattern: SCOPE, description: 'Scopes: read, settings, team, write.' },
                isAdmin: { type: 'boolean', default: false, description: 'Whether the holders are administrators.' },
              },
            },
          },
          redirectBaseUrl: {
            type: 'string',
            default: '',
            pattern: /^(https?:\/\/[^\s?#]+)?$/,
            description: 'The address users reach netinv at (e.g. `https://netinv.example.org`); the redirect URI registered at the provider is `<redirectBaseUrl>/api/auth/sso/<name>/callback`.',
          },
          reauthenticateAfterSeconds: {
            type: 'integer',
            default: 3600,
            min: 60,
            max: 604800,
            description: 'A session opened through this provider is refreshed for this long after its login, then the user logs in through the provider again (which re-checks the user and their groups there).',
          },
          clockToleranceSeconds: { type: 'integer', default: 30, min: 0, max: 300, description: 'Clock skew allowed when checking the ID token\'s `exp`, `iat` and `nbf`.' },
          eulaApproved: { type: 'boolean', default: false, description: 'Whether users of this provider are created with the EULA approved.' },
          allowInsecureHttp: { type: 'boolean', default: false, description: 'Allow an `http://` issuer (tests and labs only; never in production).' },
        },
      },
    },
  },
} as const satisfies SchemaNode
