/**
 * The API manifest: the built-in route table, every endpoint netinv itself serves.
 * Per endpoint: which service answers it, the methods and the scope each needs, the versions it
 * supports, its default version, deprecated versions with their sunset, and which endpoint version
 * each product release used in the path-versioned generation.
 *
 * The gateway loads it through the same code as the route files operators add for their own
 * backends (`CONFIG_DIR/routes/<upstream>.json`, entries of the same shape with `upstream`
 * instead of `service`; see src/gateway/routes/), and routes, versions and authorizes with the
 * table it compiles from both; a test checks the inventory's routes against it;
 * docs/api-versions.md is generated from it. Order does not matter: the most specific pattern
 * wins (see compareSpecificity).
 */
export const SCOPES = ['read', 'settings', 'team', 'write'] as const
export type Scope = (typeof SCOPES)[number]

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Access rule of one method: `public` needs no credentials; `authenticated` any valid principal
 * (the handler may check more, e.g. ownership); a scope name requires that scope.
 */
export type Access = 'public' | 'authenticated' | Scope

export interface EndpointVersion {
  /** Endpoint version number (integer, starts at 1). */
  version: number
  /** What changed in this version (breaking changes only create a version). */
  summary: string
  /** Deprecated versions carry `Deprecation: true` and their sunset. */
  deprecated?: { sunset: string | null }
}

export interface Endpoint {
  /** Stable id, also the path pattern relative to /api/<generation>/ (`:name` = one segment, `*` = rest). */
  path: string
  /**
   * Built-in table: `gateway` (answered by the gateway's own handlers) or `inventory` (netinv's
   * inventory, the upstream named "inventory").
   */
  service?: 'gateway' | 'inventory'
  /** Route files: the upstream (a name of api.json `upstreams`) that answers. */
  upstream?: string
  methods: Partial<Record<Method, Access>>
  versions: readonly EndpointVersion[]
  defaultVersion: number
  /**
   * Path generation: the endpoint version each product release used, as ascending
   * `[firstRelease, version]` pairs (release "major.minor"). Absent means every release used 1.
   */
  releases?: ReadonlyArray<readonly [string, number]>
  /** Also reachable under /api/v1/ by this v4-era camelCase path. */
  legacyAliases?: readonly string[]
  /** Takes a file upload: its body may be as large as `server.uploadLimitBytes` (else `bodyLimitBytes`). */
  upload?: boolean
  /**
   * The media types its answers come in, for `Accept` (406 when none is acceptable). Absent:
   * `application/json` for the built-in table; a route file's entry without it is not checked
   * (its upstream decides).
   */
  produces?: readonly string[]
  description: string
}

/** What a built-in endpoint answers in unless it says otherwise. */
export const JSON_ONLY: readonly string[] = ['application/json']

/** The media types a built-in endpoint answers in. */
export function producesOf(endpoint: Endpoint): readonly string[] {
  return endpoint.produces ?? JSON_ONLY
}

const V1: readonly EndpointVersion[] = [{ version: 1, summary: 'Initial version.' }]

function endpoint(e: Omit<Endpoint, 'versions' | 'defaultVersion'> & Partial<Pick<Endpoint, 'versions' | 'defaultVersion'>>): Endpoint {
  return { versions: V1, defaultVersion: 1, ...e }
}

/** In any order: the most specific matching pattern wins (compareSpecificity). */
export const ENDPOINTS: readonly Endpoint[] = [
  // ── public meta ──────────────────────────────────────────────────────────────
  endpoint({ path: 'version', service: 'gateway', methods: { GET: 'public' }, description: 'API and release version (used by SDKs at start-up).' }),
  endpoint({ path: 'os/version', service: 'gateway', methods: { GET: 'public' }, description: 'Release version for v4-era scripts: {"version":"x.y.z"}.' }),
  endpoint({ path: 'auth/jwks', service: 'gateway', methods: { GET: 'public' }, description: 'Public keys (JWKS) that verify access tokens.' }),
  endpoint({
    path: 'auth/providers',
    service: 'gateway',
    methods: { GET: 'public' },
    description: 'How people log in here, for a login page: whether POST auth/login takes local and directory (LDAP) passwords, and the single sign-on (OpenID Connect) providers with the address that starts each.',
  }),
  endpoint({ path: 'openapi.json', service: 'gateway', methods: { GET: 'public' }, description: 'This API as an OpenAPI 3.1 document, for the address generation it is asked under (?versions=latest: newest endpoint versions).' }),
  endpoint({ path: 'docs', service: 'gateway', methods: { GET: 'public' }, produces: ['text/html'], description: 'The API explorer (Swagger UI): every endpoint with its body; "Try it out" with your API key.' }),
  endpoint({ path: 'docs/*', service: 'gateway', methods: { GET: 'public' }, produces: ['text/javascript', 'text/css', 'image/png'], description: 'Files of the API explorer.' }),

  // ── authentication ───────────────────────────────────────────────────────────
  endpoint({ path: 'auth/login', service: 'gateway', methods: { POST: 'public' }, description: 'Exchange username and password for an access and a refresh token.' }),
  endpoint({
    path: 'auth/token',
    service: 'gateway',
    methods: { POST: 'public', DELETE: 'team' },
    versions: [
      { version: 1, summary: 'Refresh keeps the same refresh token and restarts its idle timer; the response holds only accessToken.', deprecated: { sunset: '2027-06-30T00:00:00Z' } },
      { version: 2, summary: 'Refresh rotates: the response is a login result with a new refreshToken; the used one is dead and its reuse revokes the family.' },
    ],
    defaultVersion: 2,
    releases: [
      ['0.0', 1],
      ['6.1', 2],
    ],
    description: 'Refresh an access token (POST) or revoke a refresh token (DELETE, scope team).',
  }),
  endpoint({ path: 'auth/logout', service: 'gateway', methods: { POST: 'authenticated' }, description: "Log out: revokes the caller's refresh-token family and clears the token cookies." }),
  endpoint({
    path: 'auth/sso/:provider/start',
    service: 'gateway',
    methods: { GET: 'public' },
    description: "Single sign-on: 302 to the OpenID Connect provider's login (authorization code flow with PKCE, state and nonce), setting the ssoState cookie.",
  }),
  endpoint({
    path: 'auth/sso/:provider/callback',
    service: 'gateway',
    methods: { GET: 'public' },
    description: "Single sign-on: where the provider sends the browser back; checks the answer and the ID token, creates or updates the user, sets the token cookies as auth/login does and answers 302 to /.",
  }),
  endpoint({
    path: 'auth/sso/:provider/device',
    service: 'gateway',
    methods: { POST: 'public' },
    description:
      "Single sign-on for a command line (device authorization grant, RFC 8628): the gateway asks the provider for a device code and answers the userCode to enter at verificationUri, and the deviceRequest to poll auth/sso/{provider}/device/token with. 404 when the provider offers no device login.",
  }),
  endpoint({
    path: 'auth/sso/:provider/device/token',
    service: 'gateway',
    methods: { POST: 'public' },
    description:
      'Polls a device login with its deviceRequest, at most every interval seconds: 202 {status: "pending", interval} until the person has logged in at the provider, then 200 with the login result object of auth/login.',
  }),
  endpoint({
    path: 'auth/eula',
    service: 'gateway',
    methods: { POST: 'public' },
    description:
      'Approve the EULA with accept: true and either username and password, or the ticket a single sign-on login answered (its callback sends the browser to `/#ssoEula=<ticket>`); with a ticket, the answer also opens the session (login result and token cookies).',
  }),

  // ── users and API keys ───────────────────────────────────────────────────────
  endpoint({
    path: 'users/me',
    service: 'gateway',
    methods: { GET: 'authenticated' },
    versions: [
      { version: 1, summary: 'v6 shape with roleIds and roleNames (required by 5.x/6.x SDKs), plus scope.' },
      { version: 2, summary: 'roleIds and roleNames removed: access is described by scope and isAdmin only.' },
    ],
    defaultVersion: 1,
    description: 'The calling user.',
  }),
  endpoint({ path: 'users', service: 'gateway', methods: { GET: 'team', POST: 'team' }, description: 'List or create users.' }),
  endpoint({ path: 'users/:id', service: 'gateway', methods: { GET: 'team', PATCH: 'team', DELETE: 'team' }, description: 'Read, change or delete a user.' }),
  endpoint({ path: 'api-tokens', service: 'gateway', methods: { GET: 'authenticated', POST: 'authenticated' }, description: 'List API keys (own; all with scope team) or create one (key shown once).' }),
  endpoint({ path: 'api-tokens/:id', service: 'gateway', methods: { GET: 'authenticated', PATCH: 'authenticated', DELETE: 'authenticated' }, description: 'Read, change the scopes of, or delete an API key (owner or scope team).' }),

  // ── snapshots and discovery ──────────────────────────────────────────────────
  endpoint({ path: 'snapshots', service: 'inventory', methods: { GET: 'read', POST: 'write' }, description: 'List snapshots (bare array) or start a discovery.' }),
  endpoint({ path: 'snapshots/upload', service: 'inventory', methods: { POST: 'write' }, upload: true, description: 'Import a snapshot file (netinv-snapshot line-oriented JSON).' }),
  endpoint({ path: 'snapshots/:id', service: 'inventory', methods: { GET: 'read', PATCH: 'write', DELETE: 'write' }, description: 'Read, rename/annotate or delete a snapshot.' }),
  endpoint({ path: 'snapshots/:id/lock', service: 'inventory', methods: { POST: 'write' }, description: 'Lock a snapshot.' }),
  endpoint({ path: 'snapshots/:id/unlock', service: 'inventory', methods: { POST: 'write' }, description: 'Unlock a snapshot.' }),
  endpoint({ path: 'snapshots/load', service: 'inventory', methods: { POST: 'write' }, description: 'Load snapshots (body [{"id", "jobDetail"}]) as snapshotLoad jobs, polled in tables/jobs.' }),
  endpoint({ path: 'snapshots/unload', service: 'inventory', methods: { POST: 'write' }, description: 'Unload snapshots (body [{"id", "jobDetail"}]) as snapshotUnload jobs, polled in tables/jobs.' }),
  endpoint({ path: 'snapshots/:id/load', service: 'inventory', methods: { POST: 'write' }, description: 'Load a snapshot so its tables can be queried (a snapshotLoad job; answers when it is done).' }),
  endpoint({ path: 'snapshots/:id/unload', service: 'inventory', methods: { POST: 'write' }, description: 'Unload a snapshot (a snapshotUnload job; answers when it is done).' }),
  endpoint({
    path: 'snapshots/:id/clone',
    service: 'inventory',
    methods: { POST: 'write' },
    versions: [
      { version: 1, summary: '204 without a body, as the original and path generations answered (the Ansible collection tests for 204); the clone is found in GET snapshots by its name and start time.' },
      { version: 2, summary: '201 with the new snapshot\'s id and job id (a POST that created a resource), and Location.' },
    ],
    defaultVersion: 2,
    description: 'Clone a snapshot into a new, unloaded, unlocked one (a snapshotClone job).',
  }),
  endpoint({ path: 'snapshots/:id/settings', service: 'inventory', methods: { GET: 'read', PATCH: 'write' }, description: 'Discovery settings a snapshot was taken with.' }),
  endpoint({
    path: 'snapshots/:id/devices',
    service: 'inventory',
    methods: { POST: 'write', DELETE: 'write' },
    versions: [
      { version: 1, summary: 'POST answers 200 when the rediscovery job starts, as the original and path generations did (the Ansible collection tests for 200).' },
      { version: 2, summary: 'POST answers 202: the rediscovery is accepted as a job, polled in tables/jobs.' },
    ],
    defaultVersion: 2,
    description: 'Rediscover devices into a loaded snapshot ({"snList": [...]} or {"ipList": [...]}; a job) or remove devices from it (a JSON array of serials).',
  }),
  endpoint({ path: 'snapshots/:id/changes', service: 'inventory', methods: { GET: 'read' }, description: 'Rows added, removed and changed per table since another snapshot (default: the previous one of the same network).' }),
  endpoint({ path: 'snapshots/:id/download', service: 'inventory', methods: { GET: 'read' }, produces: ['application/x-ndjson'], description: 'Export a snapshot file (netinv-snapshot line-oriented JSON), recorded as a snapshotDownload job.' }),
  endpoint({ path: 'settings', service: 'inventory', methods: { GET: 'settings', PATCH: 'settings' }, description: 'Global discovery settings (simulator profile, seed and sites; network include/exclude, limits, site rules, schedule).' }),
  endpoint({ path: 'settings/seed', service: 'inventory', methods: { GET: 'settings', PUT: 'settings' }, description: 'Seed addresses and networks network discovery starts from (a JSON array).' }),
  endpoint({ path: 'settings/snmp', service: 'inventory', methods: { GET: 'settings', POST: 'settings' }, description: 'SNMP credentials (v2c communities, SNMPv3 users) in the order they are tried; secrets masked.' }),
  endpoint({ path: 'settings/snmp/:id', service: 'inventory', methods: { PATCH: 'settings', DELETE: 'settings' }, description: 'Change (or reorder) or delete an SNMP credential.' }),
  endpoint({ path: 'settings/ssh', service: 'inventory', methods: { GET: 'settings', POST: 'settings' }, description: 'SSH credentials (a user with a password or a private key) network discovery reads device configurations with, in the order they are tried; secrets masked.' }),
  endpoint({ path: 'settings/ssh/host-keys', service: 'inventory', methods: { GET: 'settings' }, description: 'The SSH host key recorded per address and port on first contact; a different key later is refused and reported for that device.' }),
  endpoint({ path: 'settings/ssh/host-keys/:address', service: 'inventory', methods: { DELETE: 'settings' }, description: 'Forget the recorded host keys of an address (a device replaced or re-keyed): the next contact records the key it shows.' }),
  endpoint({ path: 'settings/ssh/:id', service: 'inventory', methods: { PATCH: 'settings', DELETE: 'settings' }, description: 'Change (or reorder) or delete an SSH credential.' }),
  endpoint({ path: 'discovery/trigger-config-backup', service: 'inventory', methods: { POST: 'write' }, description: 'Read one device\'s running configuration now ({"sn"} or {"ip"} of a device of the newest loaded network snapshot that has it) over SSH, as a configBackup job (202 with its jobId); its row of management/configuration/saved in that snapshot is replaced.' }),
  endpoint({ path: 'settings/credentials', service: 'inventory', methods: { GET: 'settings' }, description: 'The login credentials as the Python SDK reads them (`data`): netinv logs in with SNMP only, so these are the SNMP credentials (priority = position, password always masked; change them under settings/snmp). netinv collects no configurations with them (`syslog` false) and does not model expiration or excluded networks.' }),
  endpoint({ path: 'settings/privileges', service: 'inventory', methods: { GET: 'settings' }, description: 'Enable passwords (privilege accounts) as the Python SDK reads them (`data`): always empty, netinv logs in with SNMP only and keeps no enable passwords.' }),
  endpoint({ path: 'settings/vendor-api', service: 'inventory', methods: { GET: 'settings' }, description: 'Vendor API sources (cloud and controller APIs): always an empty list, netinv collects from no vendor API.' }),
  endpoint({ path: 'settings/site-separation', service: 'inventory', methods: { GET: 'settings' }, description: 'How devices are assigned to sites: the network discovery\'s site rules (settings `siteRules`, first match wins; regular expressions case-insensitive, no transformation of the site name) and the default site. Change them with PATCH settings; netinv has no regex test endpoint.' }),
  endpoint({ path: 'jobs/:id', service: 'inventory', methods: { GET: 'read' }, description: 'A job (discovery, upload, clone, load, unload, download) with its progress.' }),
  endpoint({ path: 'jobs/:id/download', service: 'inventory', methods: { GET: 'read' }, produces: ['application/x-ndjson'], description: 'The file of a finished snapshotDownload job (its downloadFile).' }),
  endpoint({ path: 'jobs/:id/stop', service: 'inventory', methods: { POST: 'write' }, description: 'Stop a running discovery (its snapshot ends in error, nothing of it loaded) or rediscovery of devices (the snapshot is unchanged).' }),

  // ── device attributes ────────────────────────────────────────────────────────
  endpoint({ path: 'attributes/global', service: 'inventory', methods: { POST: 'settings', PUT: 'settings', DELETE: 'settings' }, description: 'Global device attributes (site, floor, ... per serial), applied to future discoveries: add one (POST), add or update a list (PUT), delete by serial or id (DELETE).' }),
  endpoint({ path: 'attributes/local', service: 'inventory', methods: { PUT: 'write', DELETE: 'write' }, description: "One snapshot's device attributes (the body names the snapshot): add or update a list (PUT), delete by serial or id (DELETE)." }),

  // ── intent (colour) reports ──────────────────────────────────────────────────
  endpoint({ path: 'reports/groups', service: 'inventory', methods: { GET: 'read' }, description: 'Report groups.' }),
  endpoint({ path: 'reports', service: 'inventory', methods: { GET: 'read', POST: 'settings' }, description: 'List intent rules with results for a snapshot, or create a custom rule.' }),
  endpoint({ path: 'reports/:id', service: 'inventory', methods: { GET: 'read', PATCH: 'settings', DELETE: 'settings' }, description: 'One intent rule; custom rules may be changed or deleted.' }),

  // ── path lookup ──────────────────────────────────────────────────────────────
  endpoint({ path: 'graphs', service: 'inventory', methods: { POST: 'read' }, description: 'Path lookup in a snapshot (unicast, host to default gateway) as the graph IP Fabric\'s diagram clients read: nodes, edges, decisions per device.' }),
  endpoint({ path: 'graphs/svg', service: 'inventory', methods: { POST: 'read' }, produces: ['image/svg+xml'], description: 'The same lookup or site diagram as `graphs`, drawn as SVG (devices grouped by site, interfaces at the link ends, branches that do not deliver in red).' }),
  endpoint({ path: 'graphs/png', service: 'inventory', methods: { POST: 'read' }, produces: ['image/png'], description: 'The drawing of `graphs/svg` as a PNG image.' }),

  // ── tables ───────────────────────────────────────────────────────────────────
  endpoint({
    path: 'tables/audit',
    service: 'gateway',
    methods: { POST: 'team' },
    produces: ['application/json', 'text/csv'],
    description: 'The audit trail (who did what, when, from where, with what outcome) as a table: columns, filters, sort, pagination, CSV. Answered by the gateway.',
  }),
  endpoint({
    path: 'tables/users',
    service: 'gateway',
    methods: { POST: 'team' },
    produces: ['application/json', 'text/csv'],
    description: 'The users as a table (id, username, email, isAdmin, isLocal, roleIds, roleNames, ...): a user\'s roles are its scopes, with admin for an administrator. Answered by the gateway.',
  }),
  endpoint({
    path: 'tables/roles',
    service: 'gateway',
    methods: { POST: 'team' },
    produces: ['application/json', 'text/csv'],
    description: 'The roles as a table: one system role per scope (read, settings, team, write) and admin. Answered by the gateway.',
  }),
  endpoint({ path: 'tables/audit/description', service: 'gateway', methods: { GET: 'team' }, description: 'Description of the audit trail table: columns, types, meaning, operators, example request body. Answered by the gateway.' }),
  endpoint({ path: 'tables/users/description', service: 'gateway', methods: { GET: 'team' }, description: 'Description of the users table. Answered by the gateway.' }),
  endpoint({ path: 'tables/roles/description', service: 'gateway', methods: { GET: 'team' }, description: 'Description of the roles table. Answered by the gateway.' }),
  endpoint({ path: 'tables', service: 'inventory', methods: { GET: 'read' }, description: 'Every table with its path, description and columns; the gateway adds the tables it answers itself (audit, users, roles) for callers with scope team.' }),
  endpoint({
    path: 'tables/management/configuration/download',
    service: 'inventory',
    methods: { GET: 'read' },
    // always text/plain, as the product this API family comes from answers; clients that send Accept: application/json read the body as text
    produces: ['text/plain', 'application/json'],
    description: 'The text (text/plain) of a device configuration by its `hash` (from management/configuration): the running configuration network discovery read over SSH, secrets masked before it was stored (`sanitized` true or false is accepted; nothing unmasked is kept). 404 API_NOT_FOUND when no text is kept for the fingerprint (simulated or uploaded snapshots), its `detail` saying whether the fingerprint is known.',
  }),
  endpoint({
    path: 'tables/management/configuration/compare',
    service: 'inventory',
    methods: { GET: 'read' },
    produces: ['application/json', 'text/plain'],
    description:
      'The line-by-line difference of two kept device configurations, by their `from` and `to` fingerprints (`hash` of management/configuration, e.g. two versions of one device): `{from, to, identical, added, removed, diff}` with `diff` a unified diff (`context` lines around each change, default 3, 0–1000), or the unified diff alone as text/plain when Accept asks for it. 404 API_NOT_FOUND when a fingerprint has no kept text; 422 for a missing or malformed parameter, or two texts that differ in more than 5000 lines.',
  }),
  endpoint({ path: 'tables/*/description', service: 'inventory', methods: { GET: 'read' }, description: 'Table description: columns, types, meaning, example request body.' }),
  endpoint({
    path: 'tables/*',
    service: 'inventory',
    methods: { POST: 'read' },
    legacyAliases: [
      'tables/addressing/managedDevs',
      'tables/interfaces/switchports',
      'tables/routing/protocols/bgp/neighbors',
      'tables/addressing/duplicateIp',
      'tables/inventory/powerSupplies',
      'tables/vlan/deviceSummary',
      'tables/vlan/siteSummary',
      'tables/vlan/networkSummary',
      'tables/vlan/l3Gateways',
      'tables/networks/ipv6Routes',
      'tables/interfaces/portChannel/memberStatus',
      'tables/fhrp/groupState',
      'tables/spanningTree/bridges',
      'tables/management/osverConsistency',
    ],
    produces: ['application/json', 'text/csv'],
    description: 'Query a table (columns, filters, pagination, sort, reports; JSON or CSV).',
  }),
]

export interface EndpointMatch {
  endpoint: Endpoint
  params: Record<string, string>
  /** Rest of the path matched by `*`, if any. */
  rest: string | undefined
}

export function matchPattern(pattern: string, path: string): EndpointMatch['params'] & { '*'?: string } | null {
  const p = pattern.split('/')
  const s = path.split('/')
  const params: Record<string, string> = {}
  let si = 0
  for (let pi = 0; pi < p.length; pi++) {
    const part = p[pi]!
    if (part === '*') {
      // `*` takes at least one segment and as many as leave room for the rest of the pattern.
      const tail = p.length - pi - 1
      const take = s.length - si - tail
      if (take < 1) return null
      params['*'] = s.slice(si, si + take).join('/')
      si += take
      continue
    }
    const seg = s[si]
    if (seg === undefined || seg === '') return null
    if (part.startsWith(':')) params[part.slice(1)] = seg
    else if (part !== seg) return null
    si++
  }
  return si === s.length ? params : null
}

/** How specific a segment is: a literal before a parameter before a wildcard. */
function segmentRank(segment: string): number {
  if (segment === '*') return 2
  return segment.charCodeAt(0) === 58 /* : */ ? 1 : 0
}

/**
 * The order in which patterns are tried, most specific first: segment by segment, a literal
 * before a `:parameter` before a `*`, and a pattern before every pattern it is a prefix of
 * (`tables/*\/description` before `tables/*`). 0 means the two have the same shape (equal up
 * to parameter names): they would serve the same paths, which a route table refuses.
 */
export function compareSpecificity(a: string, b: string): number {
  const as = a.split('/')
  const bs = b.split('/')
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    if (i >= as.length) return 1
    if (i >= bs.length) return -1
    const ra = segmentRank(as[i]!)
    const rb = segmentRank(bs[i]!)
    if (ra !== rb) return ra - rb
    if (ra === 0 && as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1
  }
  return 0
}

/** Endpoints in the order they are tried, most specific first. */
export function bySpecificity<T extends { path: string }>(endpoints: readonly T[]): T[] {
  return [...endpoints].sort((a, b) => compareSpecificity(a.path, b.path))
}

const TRY_ORDER = bySpecificity(ENDPOINTS)

/** Finds the built-in endpoint for a path relative to the generation prefix (no leading slash). */
export function matchEndpoint(path: string): EndpointMatch | null {
  for (const endpoint of TRY_ORDER) {
    const params = matchPattern(endpoint.path, path)
    if (params) {
      const { '*': rest, ...named } = params
      return { endpoint, params: named, rest }
    }
  }
  return null
}

export function supportedVersions(endpoint: Endpoint): number[] {
  return endpoint.versions.map((v) => v.version)
}

export function latestVersion(endpoint: Endpoint): number {
  return Math.max(...supportedVersions(endpoint))
}

function compareRelease(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number)
  const [bm = 0, bn = 0] = b.split('.').map(Number)
  return am - bm || an - bn
}

/** The endpoint version a product release ("major.minor") used in the path generation. */
export function versionForRelease(endpoint: Endpoint, release: string): number {
  let chosen = 1
  for (const [first, version] of endpoint.releases ?? []) {
    if (compareRelease(release, first) >= 0) chosen = version
  }
  return chosen
}

export { compareRelease }

/**
 * The reverse of `releases`: the newest release listed for an endpoint version, or undefined
 * when no listed release used it. The "0.0" of a first pair ("every release before the next")
 * names no real release and is never chosen.
 */
export function releaseForVersion(endpoint: Endpoint, version: number): string | undefined {
  let chosen: string | undefined
  for (const [first, v] of endpoint.releases ?? []) {
    if (v === version && first !== '0.0' && (chosen === undefined || compareRelease(first, chosen) > 0)) chosen = first
  }
  return chosen
}

/** Methods an endpoint allows, for the `Allow` header of a 405. */
export function allowedMethods(endpoint: Endpoint): Method[] {
  return Object.keys(endpoint.methods) as Method[]
}
