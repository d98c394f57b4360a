/**
 * docs/api-versions.md, generated from the API manifest (and the versioning defaults of the
 * config schema). A test fails when the committed file is stale; regenerate with
 * `npx tsx -e "import('./src/gateway/api-versions-doc.ts').then((m) => m.writeApiVersionsDoc())"`.
 */
import { compileConfig } from '../shared/config/index.js'
import { ENDPOINTS, type Endpoint } from '../shared/manifest.js'
import { PRODUCT_VERSION } from '../shared/product.js'

export const API_VERSIONS_DOC_PATH = 'docs/api-versions.md'

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function methods(e: Endpoint): string {
  return Object.entries(e.methods)
    .map(([m, access]) => `${m} (${access})`)
    .join(', ')
}

function versions(e: Endpoint): string {
  return e.versions
    .map((v) => {
      const dep = v.deprecated ? ` — deprecated, sunset ${v.deprecated.sunset ?? 'not set'}` : ''
      return `**${v.version}**${v.version === e.defaultVersion ? ' (default)' : ''}: ${v.summary}${dep}`
    })
    .join('<br>')
}

function releases(e: Endpoint): string {
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

export function renderApiVersions(): string {
  const defaults = compileConfig({}).versioning
  const path = defaults.generations.path
  const lines = [
    '# API versions',
    '',
    '<!-- Generated from src/shared/manifest.ts by src/gateway/api-versions-doc.ts; do not edit by hand. -->',
    '',
    `Product version ${PRODUCT_VERSION}. Every response carries \`X-API-Versions-Supported\`, \`X-API-Version-Used\``,
    'and `X-Product-Version`. A deprecated version adds `Deprecation: true` and `Sunset` (RFC 3339).',
    'Invalid or unsupported versions get 410 Gone with `{message, release_version, api_version}`, and so',
    'does a version-shaped prefix of no generation (`/api/v2/…`, `/api/v6.0.1/…`).',
    '',
    '## Address generations',
    '',
    '| Generation | Shape | Endpoint version | Deprecation (defaults, `versioning.generations` in api.json) |',
    '|---|---|---|---|',
    '| header (current) | `/api/<endpoint>` + `X-API-Version` | the header, else the endpoint default | none |',
    '| original | `/api/v1/<endpoint>` | 1 | ' + (defaults.generations.original.deprecated ? `sunset ${defaults.generations.original.sunset}` : 'not deprecated') + ' |',
    `| path (deprecated) | \`/api/v<major>.<minor>/<endpoint>\` | the version that release used (column "Path generation") | sunset ${path.sunset}${path.enforce ? ', 410 at and after it' : ''}; releases above ${PRODUCT_VERSION.slice(1)} or below ${defaults.oldestRelease} get 410 |`,
    '',
    '## Endpoints',
    '',
    '| Endpoint | Service | Methods (access) | Versions | Path generation: release → version |',
    '|---|---|---|---|---|',
    ...ENDPOINTS.map((e) => `| \`${e.path}\` | ${e.service} | ${cell(methods(e))} | ${cell(versions(e))} | ${cell(releases(e))} |`),
    '',
  ]
  return lines.join('\n')
}
