/**
 * docs/api-versions.md, generated from a route table: by default the built-in one (netinv's own
 * endpoints, with its inventory) under the default configuration, which `npm run docs` writes and a
 * test keeps current; `netinv api-versions` prints it for the table a deployment's CONFIG_DIR
 * gives (api.json `upstreams` and the route files), so operators can publish what their gateway
 * serves.
 */
import { join } from 'node:path'
import { compileConfig, loadConfig, type Config } from '../shared/config/index.js'
import { ENDPOINTS, versionForRelease } from '../shared/manifest.js'
import { PRODUCT_VERSION, RELEASE_VERSION, advertisedRelease } from '../shared/product.js'
import { readRouteFiles } from './routes/files.js'
import { BUILT_IN, compileRouteTable, type Route, type RouteTable } from './routes/table.js'
import { INVENTORY, resolveUpstreams, type Upstream } from './upstreams/settings.js'

export const API_VERSIONS_DOC_PATH = 'docs/api-versions.md'

/** Stands for INVENTORY_URL where a table is only described. */
const SOME_INVENTORY = 'http://inventory.invalid'

/**
 * The route table a gateway would serve with `config` and the route files of `routesDir`, for
 * describing it: no secret or certificate is read. `withInventory`: as if INVENTORY_URL were set
 * (or `netinv serve` ran it).
 */
export function describedTable(config: Readonly<Config>, routesDir: string | undefined, withInventory: boolean): RouteTable {
  const upstreams = resolveUpstreams(config, { inventoryUrl: withInventory ? SOME_INVENTORY : undefined, internalSecret: '', readFiles: false })
  return compileRouteTable({ builtIn: ENDPOINTS, files: routesDir === undefined ? [] : readRouteFiles(routesDir), upstreams, canMintTokens: true })
}

/** The table of a CONFIG_DIR (api.json and routes/), as `netinv gateway` would load it. */
export function tableOfConfigDir(configDir: string, withInventory: boolean): { config: Readonly<Config>; table: RouteTable } {
  const { config } = loadConfig(configDir)
  return { config, table: describedTable(config, join(configDir, 'routes'), withInventory) }
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function methods(e: Route): string {
  return Object.entries(e.methods)
    .map(([m, access]) => `${m} (${access})`)
    .join(', ')
}

function versions(e: Route): string {
  return e.versions
    .map((v) => {
      const dep = v.deprecated ? ` — deprecated, sunset ${v.deprecated.sunset ?? 'not set'}` : ''
      return `**${v.version}**${v.version === e.defaultVersion ? ' (default)' : ''}: ${v.summary}${dep}`
    })
    .join('<br>')
}

function releases(e: Route): string {
  if (!e.releases || e.releases.length === 0) return 'all: 1'
  return e.releases
    .map(([first, v], i) => {
      const next = e.releases![i + 1]
      const from = first === '0.0' ? '' : `${first} `
      if (!next) return `${from || 'all '}${from ? 'and later' : ''}: ${v}`.replace('all : ', 'all: ')
      return `${from ? `${from}up to ` : 'before '}${next[0]}${from ? ' (excl.)' : ''}: ${v}`
    })
    .join('<br>')
}

/** Who answers, and how an upstream that takes path versions is addressed. */
function answeredBy(e: Route): string {
  if (!e.target) return 'gateway'
  if (!e.pathReleases) return e.target.name
  const sent = [...e.pathReleases].map(([v, release]) => `${v} → /api/v${release}/`)
  return `${e.target.name} (${sent.join(', ') || 'no version served'})`
}

const VERSIONING: Record<Upstream['versioning'], string> = {
  header: '`/api/<endpoint>` + `X-API-Version`',
  path: '`/api/v<major>.<minor>/<endpoint>`',
  original: '`/api/v1/<endpoint>`',
  none: 'the endpoint path, no version',
}

function upstreamRows(table: RouteTable): string[] {
  const rows = [...table.upstreams.values()].map((u) => {
    const where = u.name === INVENTORY ? "netinv's inventory" : 'route files'
    const health = u.healthPath === '' ? 'not probed' : `\`${u.healthPath}\`${u.healthRequired ? '' : ' (reported only)'}`
    return `| \`${u.name}\` | ${where} | ${cell(VERSIONING[u.versioning])} | ${u.identity.mode} | ${cell(health)} |`
  })
  return ['| Upstream | Endpoints from | Told the version by | Identity | Health |', '|---|---|---|---|---|', ...rows]
}

/** The advertised apiVersion that lets both 5.x and 6.x SDKs in. */
export const LEGACY_API_VERSION = 'v5.0'

/** The per-address limit of the recipe: what the older SDKs' sweeps and aio-ipfabric's page fetches need. */
const LEGACY_PER_SECOND = 1000

/** "Older clients": which apiVersion serves which client generation, and the one recipe. */
function olderClients(defaults: Readonly<Config>['versioning'], defaultPerSecond: number): string[] {
  const release = LEGACY_API_VERSION.slice(1)
  const token = ENDPOINTS.find((e) => e.path === 'auth/token')!
  const recipe = { versioning: { apiVersion: LEGACY_API_VERSION, generations: { path: { deprecated: true, sunset: '2027-12-31T00:00:00Z', enforce: false } } }, rateLimit: { perSecond: LEGACY_PER_SECOND } }
  return [
    '## Older clients: one recipe',
    '',
    'SDKs of the 5.x and 6.x generations start with `GET /api/version` (no credentials), refuse a server whose',
    '`apiVersion` major is above their own, and then address `/api/v<major>.<minor>/` with the lower of their own',
    `version and \`apiVersion\`. With the shipped config (\`apiVersion\` ${defaults.apiVersion}, path generation sunset`,
    `${defaults.generations.path.sunset}${defaults.generations.path.enforce ? ', enforced' : ''}) every such SDK stops: the major is above theirs, and`,
    'their path generation answers 410 once the sunset has passed.',
    '',
    '| Client generation | Addresses | Served when |',
    '|---|---|---|',
    `| current clients, curl | \`/api/<endpoint>\` + \`X-API-Version\` | always (header generation) |`,
    '| 6.x SDKs | `/api/v<min(own, apiVersion)>/…` | `apiVersion` major ≤ 6 and the path generation open |',
    '| 5.x SDKs | `/api/v<min(own, apiVersion)>/…` | `apiVersion` major ≤ 5 and the path generation open |',
    '| v4-era scripts | `/api/v1/…` (`os/version`, camelCase table names) | always (original generation) |',
    '',
    `An \`apiVersion\` of \`${LEGACY_API_VERSION}\` lets both 5.x and 6.x SDKs in: neither refuses major 5, and both address`,
    `\`/api/${LEGACY_API_VERSION}/\`. The recipe, in \`api.json\` (or the chart's \`config\` values, as in`,
    '`helm/netinv/examples/legacy-clients.yaml`):',
    '',
    '```json',
    JSON.stringify(recipe, null, 2),
    '```',
    '',
    `- \`apiVersion: "${LEGACY_API_VERSION}"\`: \`GET /api/version\` answers \`{"apiVersion": "${LEGACY_API_VERSION}", "releaseVersion": "${advertisedRelease(LEGACY_API_VERSION)}"}\` —`,
    `  \`releaseVersion\` follows the advertised \`apiVersion\` (the SDKs read the release from it), with this product's`,
    `  release (${RELEASE_VERSION}) after the \`+\`. \`X-Product-Version\` still names this product (${PRODUCT_VERSION}).`,
    '- One source decides the versions each generation reports (`reportedVersion`, src/shared/product.ts), so a client',
    '  never reads two: the original and path generations, and `GET /api/version`, report the advertised `apiVersion`',
    '  and its release; `GET /api/v1/os/version` answers that release, and the `version` / `initialVersion` of a',
    `  snapshot this product wrote (\`GET snapshots\`) is that \`apiVersion\`. The header generation reports the product:`,
    `  \`GET /api/os/version\` ${RELEASE_VERSION}, snapshots ${PRODUCT_VERSION}, as \`X-Product-Version\`. A snapshot imported from another`,
    '  product keeps the version it was written with.',
    `- \`rateLimit.perSecond: ${LEGACY_PER_SECOND}\`: the 5.x/6.x SDKs never retry a 429, and aio-ipfabric retries one only after waiting 4 to 10 s. An SDK's sweep of its table`,
    `  endpoints sends one request after another as fast as the server answers (several hundred a second from one`,
    `  address on a quiet server), and aio-ipfabric fetches every page of a table at once: at the default of`,
    `  ${defaultPerSecond} a second both fail part-way. Raise it further for many such clients behind one address, or bound`,
    '  each key with `rateLimit.apiKeyPerSecond`.',
    `- The path generation's sunset must move: pick a date after the last old client is retired, and keep \`enforce\``,
    `  false (or true, to cut them off at that date). Responses keep \`Deprecation: true\` and \`Sunset\`, so the clients`,
    `  are told. \`oldestRelease\` (default ${defaults.oldestRelease}) must stay at or below ${release}.`,
    `- What \`/api/${LEGACY_API_VERSION}/\` serves: each endpoint at the version release ${release} used (column "Path generation"`,
    `  below), e.g. \`auth/token\` version ${versionForRelease(token, release)}: a refresh keeps the refresh token, as 6.0-era SDKs expect.`,
    '- Clients of the header generation are unaffected. A newer client that also reads `apiVersion` to choose a path',
    `  would follow it to \`/api/${LEGACY_API_VERSION}/\` and get that release's endpoint versions, so advertise ${LEGACY_API_VERSION} only while`,
    '  5.x/6.x SDKs are in use, and `v6.0` once only 6.x SDKs remain.',
    '',
  ]
}

export function renderApiVersions(table: RouteTable = describedTable(compileConfig({}), undefined, true), config: Readonly<Config> = compileConfig({})): string {
  const { generations, oldestRelease } = config.versioning
  const path = generations.path
  const original = generations.original
  const policy = (p: typeof path) => (p.deprecated ? `sunset ${p.sunset ?? 'not set'}${p.enforce ? ', 410 at and after it' : ''}` : 'not deprecated')
  const fromFiles = table.listed.some((r) => r.source !== BUILT_IN)
  const lines = [
    '# API versions',
    '',
    fromFiles
      ? '<!-- Generated by `netinv api-versions` from the built-in route table (src/shared/manifest.ts), api.json and the route files. -->'
      : '<!-- Generated from src/shared/manifest.ts by src/gateway/api-versions-doc.ts; do not edit by hand. -->',
    '',
    `Product version ${PRODUCT_VERSION}. Every response carries \`X-API-Versions-Supported\`, \`X-API-Version-Used\``,
    'and `X-Product-Version`, errors included (400, 401, 403, 404, 405, 406, 408, 410, 413, 429, 5xx, and what the gateway',
    'answers before it has read a whole request). A deprecated version adds `Deprecation: true` and `Sunset` (RFC 3339).',
    '',
    '| Header | Endpoint known | Unknown endpoint (404, a refused path, an answer before routing) |',
    '|---|---|---|',
    '| `X-API-Versions-Supported` | the versions the endpoint supports, e.g. `1,2` | empty: no endpoint, no version (like `api_version: ""` in a 410 body) |',
    '| `X-API-Version-Used` | the version that served the request; for a 405, the version it would have had; empty on a version error (410): none served it | empty |',
    `| \`X-Product-Version\` | ${PRODUCT_VERSION} | ${PRODUCT_VERSION} |`,
    '',
    'Invalid or unsupported versions get 410 Gone with `{message, release_version, api_version}`, and so',
    'does a version-shaped prefix of no generation (`/api/v2/…`, `/api/v6.0.1/…`).',
    '',
    '## Address generations',
    '',
    '| Generation | Shape | Endpoint version | Deprecation (`versioning.generations` in api.json) |',
    '|---|---|---|---|',
    '| header (current) | `/api/<endpoint>` + `X-API-Version` | the header, else the endpoint default | none |',
    `| original | \`/api/v1/<endpoint>\` | 1 | ${policy(original)} |`,
    `| path (deprecated) | \`/api/v<major>.<minor>/<endpoint>\` | the version that release used (column "Path generation") | ${policy(path)}; releases above ${PRODUCT_VERSION.slice(1)} or below ${oldestRelease} get 410 |`,
    '',
    ...olderClients(compileConfig({}).versioning, compileConfig({}).rateLimit.perSecond),
    '## Upstreams',
    '',
    'Where the gateway forwards, and how each upstream is told the endpoint version and the caller.',
    '',
    ...upstreamRows(table),
    '',
    '## Endpoints',
    '',
    '| Endpoint | Answered by | Methods (access) | Versions | Path generation: release → version |',
    '|---|---|---|---|---|',
    ...table.listed.map((e) => `| \`${e.path}\` | ${cell(answeredBy(e))} | ${cell(methods(e))} | ${cell(versions(e))} | ${cell(releases(e))} |`),
    '',
  ]
  return lines.join('\n')
}
