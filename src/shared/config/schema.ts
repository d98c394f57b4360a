/**
 * The schema of `CONFIG_DIR/api.json`: every key the product reads, its default and its meaning.
 * Settings of the specification sit under `app` exactly as the spec names them; everything else
 * is ours. `docs/operations.md` lists these keys and a test keeps it in step.
 */
import type { SchemaNode } from './schema-types.js'
import { LDAP_SCHEMA, type LdapConfig } from './ldap.js'
import { SSO_SCHEMA, type SsoConfig } from './sso.js'
import { UPSTREAMS_SCHEMA, type UpstreamConfig } from './upstreams.js'

export type { UpstreamConfig } from './upstreams.js'
export type { LdapConfig } from './ldap.js'
export type { SsoConfig, SsoProviderConfig } from './sso.js'

/** An endpoint of the route table, as its path pattern (e.g. "auth/login", "snapshots/:id", "tables/*"). */
const ENDPOINT_KEY = /^[A-Za-z0-9*:][A-Za-z0-9._~\-/*:]*$/
const CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/

const sunsetPolicy = (sunset: string | null, enforce: boolean, what: string) =>
  ({
    type: 'object',
    description: `Deprecation of the ${what}.`,
    properties: {
      deprecated: {
        type: 'boolean',
        default: sunset !== null,
        description: 'Whether responses carry `Deprecation: true` (and `Sunset` when a date is set).',
      },
      sunset: {
        type: 'datetime',
        default: sunset,
        description: 'RFC 3339 date-time after which the generation may answer 410 Gone; null for none.',
      },
      enforce: {
        type: 'boolean',
        default: enforce,
        description: 'When true, requests at or after `sunset` get 410 Gone; when false they keep working.',
      },
    },
  }) as const satisfies SchemaNode

export const CONFIG_SCHEMA = {
  type: 'object',
  description: 'api.json',
  properties: {
    app: {
      type: 'object',
      description: 'Authentication settings of the specification.',
      properties: {
        accessToken: {
          type: 'object',
          description: 'Access tokens (JWT).',
          properties: {
            expiresIn: {
              type: 'integer',
              default: 1800,
              min: 10,
              max: 86400,
              description: 'Access token lifetime in seconds.',
            },
          },
        },
        refreshToken: {
          type: 'object',
          description: 'Refresh tokens.',
          properties: {
            expiresIn: {
              type: 'integer',
              default: 86400,
              min: 10,
              max: 31536000,
              description: 'Refresh token idle lifetime in seconds, counted from its last use.',
            },
            length: {
              type: 'integer',
              default: 64,
              min: 32,
              max: 512,
              description: 'Length of the refresh token string (URL-safe characters).',
            },
            reuseGraceSeconds: {
              type: 'integer',
              default: 0,
              min: 0,
              max: 60,
              description:
                'Off (0) by default: a rotated refresh token is never valid again, and presenting it revokes its whole family. When above 0, a rotated token presented again within this many seconds of its rotation is answered with the token pair it was rotated into (concurrent refreshes of one client); the risk: whoever stole a token can use it in that time too (see docs/authentication.md).',
            },
          },
        },
        enableLocalAuthentication: {
          type: 'boolean',
          default: true,
          description:
            'When false, the passwords kept by netinv stop working: local users\' auth/login, auth/eula, their sessions and Basic are refused (403 API_LOCAL_AUTHENTICATION_DISABLED). Directory (`ldap`) and single sign-on (`sso`) logins, their sessions and API keys keep working, and so does the privileged command line (`netinv user ...`).',
        },
        jwt: {
          type: 'object',
          description: 'Claims of issued access tokens.',
          properties: {
            issuer: { type: 'string', default: 'netinv', description: 'The `iss` claim.' },
            audience: { type: 'string', default: 'netinv-api', description: 'The `aud` claim.' },
          },
        },
      },
    },
    server: {
      type: 'object',
      description: 'The public HTTP server.',
      properties: {
        bodyLimitBytes: {
          type: 'integer',
          default: 1048576,
          min: 1024,
          description: 'Largest accepted JSON request body in bytes (413 above).',
        },
        uploadLimitBytes: {
          type: 'integer',
          default: 2147483648,
          min: 1024,
          description: 'Largest accepted snapshot file upload in bytes (413 above).',
        },
        trustedProxies: {
          type: 'stringList',
          default: [],
          pattern: CIDR,
          description:
            'Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed (the first untrusted address from the right is the client).',
        },
        adminPort: {
          type: 'integer',
          default: 9090,
          min: 0,
          max: 65535,
          description: 'Port of the admin listener (/metrics); 0 picks a free port. The env ADMIN_PORT overrides.',
        },
        shutdownGraceMs: {
          type: 'integer',
          default: 25000,
          min: 0,
          description: 'On SIGTERM, how long in-flight requests may take before the process exits.',
        },
        headersTimeoutMs: {
          type: 'integer',
          default: 30000,
          min: 1000,
          description: 'Time a client has to send the whole header section of a request; then 408 and the connection is closed. Applied at start.',
        },
        clientTimeoutMs: {
          type: 'integer',
          default: 60000,
          min: 1000,
          description:
            'Longest silence of a client in the middle of a request body (then 408), or while the gateway waits for it to take more of a response (then the connection is cut and the upstream request released); also closes connections idle before their first request. Applied at start.',
        },
      },
    },
    upstream: {
      type: 'object',
      description: 'Forwarding from the gateway to its upstreams: netinv\'s inventory and every backend of `upstreams` (each may set its own).',
      properties: {
        connectTimeoutMs: {
          type: 'integer',
          default: 2000,
          min: 1,
          description: 'Time to open a connection to an upstream before answering 502.',
        },
        timeoutMs: {
          type: 'integer',
          default: 120000,
          min: 1,
          description: 'Time an upstream may take to start answering (and, once it answers, each wait for more of its answer) before the gateway answers 504.',
        },
        maxSockets: {
          type: 'integer',
          default: 256,
          min: 1,
          description: 'Keep-alive sockets per gateway process towards one upstream, for each of its two pools (requests without a body go through undici\'s pool, those with a body through node\'s agent).',
        },
        idleTimeoutMs: {
          type: 'integer',
          default: 4000,
          min: 1,
          description:
            'Time a kept-alive upstream connection may stay unused before the gateway closes it. Below the upstream server\'s own keep-alive timeout (node\'s default is 5 s; netinv\'s inventory keeps 65 s), so the gateway never sends a request on a connection the upstream is closing; an idempotent request without a body whose connection closes under it before any answer is sent again once, on a new connection.',
        },
        documentRefreshMs: {
          type: 'integer',
          default: 30000,
          min: 100,
          description: 'How often the gateway asks each upstream that publishes an OpenAPI document (`upstreams.<name>.documentPath`) whether it changed (If-None-Match); every second while it has none of it yet.',
        },
      },
    },
    upstreams: UPSTREAMS_SCHEMA,
    ldap: LDAP_SCHEMA,
    sso: SSO_SCHEMA,
    audit: {
      type: 'object',
      description: 'The audit trail (docs/authentication.md, "Audit trail").',
      properties: {
        retentionDays: {
          type: 'integer',
          default: 0,
          min: 0,
          max: 36500,
          description: 'Events older than this many days are removed (hourly); the chain of the rest still verifies. 0 keeps every event.',
        },
        flushMs: {
          type: 'integer',
          default: 200,
          min: 1,
          max: 10000,
          description: 'Events are written in batches at most this many milliseconds after they happen (the request never waits for the write).',
        },
      },
    },
    rateLimit: {
      type: 'object',
      description: 'Per-client-IP request rate limiting (requests per second).',
      properties: {
        enabled: { type: 'boolean', default: true, description: 'Switches rate limiting on or off.' },
        shadow: {
          type: 'boolean',
          default: false,
          description: 'Count and log what would be rejected, but let it through.',
        },
        perSecond: {
          type: 'integer',
          default: 100,
          min: 1,
          description: 'Requests one client IP may make in one second.',
        },
        endpoints: {
          type: 'integerMap',
          default: { 'auth/login': 5, 'auth/token': 20 },
          min: 1,
          keyPattern: ENDPOINT_KEY,
          description: 'Per-endpoint limits per client IP per second, keyed by endpoint (e.g. "auth/login").',
        },
        loginPerUsernamePerMinute: {
          type: 'integer',
          default: 10,
          min: 1,
          description:
            'Failed password checks per username from one client address per minute (auth/login, Basic, auth/eula); then that address gets 429 for that username until the oldest failure is a minute old. Other addresses are not affected.',
        },
        loginPerUsernamePerHour: {
          type: 'integer',
          default: 100,
          min: 1,
          description:
            'Failed password checks per username per hour from all client addresses together; then that username gets 429 from every address that has not passed its password check in the last day, until the oldest failure is an hour old.',
        },
        apiKeyPerSecond: {
          type: 'integer',
          default: 0,
          min: 0,
          description: 'Requests one API key may make per second across all IPs; 0 for no per-key limit.',
        },
        redisTimeoutMs: {
          type: 'integer',
          default: 50,
          min: 1,
          description: 'How long a Redis rate-limit call may take before the in-process fallback answers.',
        },
      },
    },
    versioning: {
      type: 'object',
      description: 'Address generations, advertised versions and deprecation.',
      properties: {
        apiVersion: {
          type: 'string',
          default: 'v7.6',
          pattern: /^v\d+\.\d+$/,
          description:
            'The `apiVersion` reported by GET /api/version (releaseVersion follows it). 5.x/6.x-era SDKs address /api/v<major>.<minor>/ with the lower of this and their own version and refuse a higher major: "v5.0" lets both in (docs/api-versions.md, "Older clients").',
        },
        oldestRelease: {
          type: 'string',
          default: '4.0',
          pattern: /^\d+\.\d+$/,
          description: 'Oldest product release accepted in a path version segment; older releases get 410.',
        },
        generations: {
          type: 'object',
          description: 'Per address generation deprecation and sunset.',
          properties: {
            original: sunsetPolicy(null, false, 'original generation /api/v1/<endpoint>'),
            path: sunsetPolicy('2026-02-01T00:00:00Z', true, 'path-versioned generation /api/v<major>.<minor>/<endpoint>'),
          },
        },
        endpointSunsets: {
          type: 'record',
          default: {},
          keyPattern: /^[A-Za-z0-9*:][A-Za-z0-9._~\-/*:]*@\d+$/,
          description:
            'Overrides of the sunset of deprecated endpoint versions, keyed "<endpoint>@<version>" (e.g. "auth/token@1").',
          values: {
            type: 'object',
            description: 'Sunset of one deprecated endpoint version.',
            properties: {
              sunset: { type: 'datetime', default: null, description: 'RFC 3339 sunset date-time.' },
              enforce: { type: 'boolean', default: false, description: '410 at or after the sunset.' },
            },
          },
        },
      },
    },
    query: {
      type: 'object',
      description: 'Table queries.',
      properties: {
        maxLimit: {
          type: 'integer',
          default: 10000,
          min: 1,
          description: 'Largest `pagination.limit` accepted by table endpoints (422 above).',
        },
        defaultLimit: {
          type: 'integer',
          default: 1000,
          min: 1,
          description: 'Rows returned when a table request of the header generation (`/api/<table>`) names no `pagination.limit`; `_meta.truncated` is true when matching rows were left out.',
        },
        legacyDefaultLimit: {
          type: 'integer',
          default: 100000,
          min: 1,
          description:
            'Rows returned when a table request of the original or path generation (`/api/v1/…`, `/api/v<major>.<minor>/…`) names no `pagination.limit`: their clients (Nautobot\'s raw requests, aio-ipfabric) expect every row. A bound on the memory one answer takes; `_meta.truncated` is true when matching rows were left out.',
        },
        statementTimeoutMs: {
          type: 'integer',
          default: 30000,
          min: 100,
          description:
            'Time limit of one table request from its start (page and count together, each statement under what remains; also a report\'s results and a snapshot\'s changes; not CSV exports): 503 API_QUERY_TIMEOUT after it. On the embedded database it also counts the wait for its turn, and a statement past it is stopped by restarting the database thread.',
        },
        maxConcurrentPerPrincipal: {
          type: 'integer',
          default: 4,
          min: 1,
          description:
            'Table queries one user (with all their API keys and sessions) may run at once on one inventory process; more wait for their turn (`maxQueuedPerPrincipal`). On the embedded database they take turns in the user\'s lane (one in the database at a time), so other users wait behind one of them at most.',
        },
        keepingConcurrency: {
          type: 'integer',
          default: 2,
          min: 1,
          max: 16,
          description:
            'Tables whose comparison with the previous snapshot a finished discovery keeps at once, in the background, each in a PostgreSQL session of its own (about one core of the database server each while it lasts; `GET snapshots/{id}/changes` and compared pages read what is kept). On "large" (5.4 M rows, 98 tables) on 2 cores: 36–41 s one at a time, 20–22 s two at once (docs/architecture.md). The embedded database keeps one at a time whatever this says: its one session serves statements in turn.',
        },
        maxQueuedPerPrincipal: {
          type: 'integer',
          default: 200,
          min: 0,
          description:
            'Table queries of one user that wait, in order, for one of their running ones to finish, each against its own `statementTimeoutMs` (503 `API_QUERY_TIMEOUT` with Retry-After past it); above running and waiting together, 429 with Retry-After. Fits clients that send every page at once (aio-ipfabric: all pages together, up to 100 connections; it retries a 429 only after 4 to 10 s, the SDKs never); 0 answers 429 as soon as `maxConcurrentPerPrincipal` are running.',
        },
      },
    },
    auth: {
      type: 'object',
      description: 'Verification of credentials by the gateway: caches, and the bound on password hashing.',
      properties: {
        passwordChecks: {
          type: 'object',
          description:
            'Password checks (auth/login, Basic on a cache miss, auth/eula) hash with scrypt, about 30 ms of a core each. Beyond `concurrency` at once and `queue` waiting, a check is refused at once with 503 and Retry-After: 1, so a flood of logins cannot make real ones wait for seconds.',
          properties: {
            concurrency: {
              type: 'integer',
              default: 0,
              min: 0,
              max: 64,
              description: 'Checks hashing at once; 0 picks one per core but one, from 1 to 3 (more than libuv\'s thread pool, 4 by default, would only queue there).',
            },
            queue: {
              type: 'integer',
              default: 16,
              min: 0,
              max: 10000,
              description: 'Checks waiting for a turn; a successful login waits at most about queue × 30 ms / concurrency.',
            },
          },
        },
        cacheTtlMs: {
          type: 'integer',
          default: 10000,
          min: 0,
          max: 300000,
          description: 'How long a verified API key, Basic credential or JWT stays cached.',
        },
        cacheMax: { type: 'integer', default: 10000, min: 1, description: 'Entries per verification cache.' },
      },
    },
  },
} as const satisfies SchemaNode

export interface SunsetPolicy {
  deprecated: boolean
  sunset: string | null
  enforce: boolean
}

/** The validated, frozen configuration (shape of CONFIG_SCHEMA). */
export interface Config {
  app: {
    accessToken: { expiresIn: number }
    refreshToken: { expiresIn: number; length: number; reuseGraceSeconds: number }
    enableLocalAuthentication: boolean
    jwt: { issuer: string; audience: string }
  }
  server: {
    bodyLimitBytes: number
    uploadLimitBytes: number
    trustedProxies: string[]
    adminPort: number
    shutdownGraceMs: number
    headersTimeoutMs: number
    clientTimeoutMs: number
  }
  upstream: { connectTimeoutMs: number; timeoutMs: number; maxSockets: number; idleTimeoutMs: number; documentRefreshMs: number }
  upstreams: Record<string, UpstreamConfig>
  ldap: LdapConfig
  sso: SsoConfig
  audit: { retentionDays: number; flushMs: number }
  rateLimit: {
    enabled: boolean
    shadow: boolean
    perSecond: number
    endpoints: Record<string, number>
    loginPerUsernamePerMinute: number
    loginPerUsernamePerHour: number
    apiKeyPerSecond: number
    redisTimeoutMs: number
  }
  versioning: {
    apiVersion: string
    oldestRelease: string
    generations: { original: SunsetPolicy; path: SunsetPolicy }
    endpointSunsets: Record<string, { sunset: string | null; enforce: boolean }>
  }
  query: { maxLimit: number; defaultLimit: number; legacyDefaultLimit: number; statementTimeoutMs: number; maxConcurrentPerPrincipal: number; keepingConcurrency: number; maxQueuedPerPrincipal: number }
  auth: { cacheTtlMs: number; cacheMax: number; passwordChecks: { concurrency: number; queue: number } }
}
