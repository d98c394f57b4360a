/**
 * `upstreams` of api.json: the backends the gateway forwards to, by name. netinv's own inventory
 * is the upstream named `inventory` (its URL comes from the environment unless set here); every
 * other one is an HTTP API the gateway fronts with the spec's door (address generations,
 * versions, deprecation, authentication, scopes, limits). Route files (`CONFIG_DIR/routes/`)
 * say which endpoints each one serves. What cannot be checked here (a URL's scheme against its
 * TLS settings, files that must be readable, mode-specific keys) is checked when the gateway
 * builds its route table, at start and on every reload.
 */
import type { SchemaNode } from './schema-types.js'

export const UPSTREAM_NAME = /^[a-z][a-z0-9-]{0,62}$/
export const VERSIONING_MODES = ['header', 'path', 'original', 'none'] as const
export const IDENTITY_MODES = ['internal', 'jwt', 'credential', 'passthrough'] as const

export type VersioningMode = (typeof VERSIONING_MODES)[number]
export type IdentityMode = (typeof IDENTITY_MODES)[number]

export interface UpstreamConfig {
  url: string
  versioning: VersioningMode
  release: string
  identity: { mode: IdentityMode; header: string; valueFile: string; secretFile: string; tokenTtlSeconds: number }
  tls: { caFile: string; certFile: string; keyFile: string; serverName: string }
  connectTimeoutMs: number | null
  timeoutMs: number | null
  maxSockets: number | null
  idleTimeoutMs: number | null
  healthPath: string
  healthRequired: boolean
  documentPath: string
}

const file = (what: string) => ({ type: 'string', default: '', description: what }) as const

export const UPSTREAMS_SCHEMA = {
  type: 'record',
  default: {},
  keyPattern: UPSTREAM_NAME,
  expand: 'name',
  description:
    'Backends the gateway forwards to, by name (lower case, digits and dashes). `inventory` is netinv\'s own inventory; any other name is an HTTP API whose endpoints a route file `CONFIG_DIR/routes/<name>.json` lists (see "Put the gateway in front of an existing API").',
  values: {
    type: 'object',
    description: 'One upstream.',
    properties: {
      url: {
        type: 'string',
        default: '',
        pattern: /^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?)?$/,
        description:
          'Base URL, `http://` or `https://`; a path in it prefixes every forwarded path. Empty only for `inventory`, whose URL is INVENTORY_URL (`netinv gateway`) or the process\'s own inventory (`netinv serve`).',
      },
      versioning: {
        type: 'string',
        default: 'header',
        enum: VERSIONING_MODES,
        description:
          'How the upstream is told the endpoint version: `header` sends `/api/<endpoint>` with `X-API-Version: <n>`; `path` sends `/api/v<major>.<minor>/<endpoint>` with the newest release the route lists for that version (a version with no release gets 410 before anything is sent); `original` sends `/api/v1/<endpoint>` (a declared camelCase alias where there is one); `none` sends `<endpoint>` under the URL\'s path and says nothing of versions.',
      },
      release: {
        type: 'string',
        default: '',
        pattern: /^(\d{1,3}\.\d{1,3})?$/,
        description: '`versioning: path`: the release written in the path for routes that list no `releases` (e.g. "6.0").',
      },
      identity: {
        type: 'object',
        description: 'How the caller\'s identity reaches the upstream.',
        properties: {
          mode: {
            type: 'string',
            default: 'internal',
            enum: IDENTITY_MODES,
            description:
              '`internal`: netinv\'s internal header with the shared secret (netinv\'s inventory); `jwt`: a short-lived token minted by the gateway per caller (`Authorization: Bearer`, audience the upstream\'s name), verifiable with GET /api/auth/jwks; `credential`: the client\'s credentials are removed and the upstream gets a service credential of its own (`header`, `valueFile`); `passthrough`: the client\'s Authorization, X-API-Token and cookies go through untouched and the upstream decides.',
          },
          header: {
            type: 'string',
            default: '',
            pattern: /^([A-Za-z0-9-]+)?$/,
            description: '`credential`: the header that carries the service credential, e.g. `X-API-Token` or `Authorization`.',
          },
          valueFile: file(
            '`credential`: a file holding the header\'s value (e.g. the key, or `Basic <base64 of user:password>`), so that the secret stays out of api.json; read at start and on every reload.',
          ),
          secretFile: file('`internal`: a file holding the shared secret of this upstream; empty: INTERNAL_SECRET.'),
          tokenTtlSeconds: {
            type: 'integer',
            default: 300,
            min: 30,
            max: 3600,
            description: '`jwt`: lifetime of a minted token; the gateway mints one per caller and reuses it until shortly before it expires.',
          },
        },
      },
      tls: {
        type: 'object',
        description: 'For an `https://` URL.',
        properties: {
          caFile: file('PEM file of the certificate authorities that may sign the upstream\'s certificate; empty: the system\'s.'),
          certFile: file('PEM client certificate the gateway presents (with `keyFile`); empty: none.'),
          keyFile: file('PEM private key of `certFile`.'),
          serverName: { type: 'string', default: '', description: 'Name the certificate must carry when it is not the URL\'s host.' },
        },
      },
      connectTimeoutMs: { type: 'integer', default: null, min: 1, description: 'Overrides `upstream.connectTimeoutMs` for this upstream.' },
      timeoutMs: { type: 'integer', default: null, min: 1, description: 'Overrides `upstream.timeoutMs` for this upstream.' },
      maxSockets: { type: 'integer', default: null, min: 1, description: 'Overrides `upstream.maxSockets` for this upstream.' },
      idleTimeoutMs: {
        type: 'integer',
        default: null,
        min: 1,
        description: 'Overrides `upstream.idleTimeoutMs` for this upstream: keep it below the keep-alive timeout of the upstream\'s server.',
      },
      healthPath: {
        type: 'string',
        default: '',
        pattern: /^(\/[^\s?#]*)?$/,
        description:
          'Path (under the URL) the gateway probes for /readyz and the `netinv_gateway_upstream_up` metric; any 2xx is healthy. Empty: not probed (`inventory`: `/readyz`).',
      },
      healthRequired: {
        type: 'boolean',
        default: true,
        description: 'Whether a failing probe makes the gateway not ready (503); when false it is only reported (`"status": "degraded"`).',
      },
      documentPath: {
        type: 'string',
        default: '',
        pattern: /^(\/[^\s?#]*)?$/,
        description:
          'Path (under the URL) of the OpenAPI 3.x document the upstream publishes: the gateway composes its own document with it, and takes from it which paths under a `*` route exist (others: 404). Read before the gateway listens, then every `upstream.documentRefreshMs`; the last good one is kept while the upstream is away. Empty: none (`inventory`: `/openapi.json`).',
      },
    },
  },
} as const satisfies SchemaNode
