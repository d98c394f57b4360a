/**
 * GET openapi.json (the document of the generation it is asked under: `/api/openapi.json`,
 * `/api/v1/openapi.json`, `/api/v6.0/openapi.json`) and the API explorer at GET docs: Swagger UI
 * from the swagger-ui-dist package, served from local files (no CDN), reading the document of
 * the same generation; "Try it out" sends the API key given under "Authorize" (X-API-Token).
 * A document is built once per route table and upstream documents (a configuration reload, or
 * a changed document of an upstream, builds a new one).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Config } from '../../shared/config/index.js'
import { invalidInput, notFound } from '../../shared/errors.js'
import { ownValue } from '../../shared/own.js'
import { handlerKey, type LocalHandler, type RequestContext } from '../context.js'
import type { RouteTable } from '../routes/table.js'
import type { UpstreamDocuments } from '../upstreams/documents.js'
import { buildDocument, type DocumentOptions } from './document.js'

export interface OpenApiDeps {
  config(): Readonly<Config>
  routes(): RouteTable
  /** What the upstreams publish (composed into the document; a change builds it again). */
  documents?: UpstreamDocuments
}

const VERSION_SETS = ['default', 'latest'] as const

/** The explorer's files: name → media type. Only these are served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}

/** Swagger UI's start: the document beside the page, "Try it out" on, no online validator. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    tryItOutEnabled: true,
    validatorUrl: null,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})
`

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>netinv API</title>
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`

/** Nothing but this gateway: the page can load and call nothing elsewhere. */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"

function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}

function send(ctx: RequestContext, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  ctx.res.writeHead(200, { ...ctx.responseHeaders, ...headers, 'content-type': type, 'content-length': String(Buffer.byteLength(body)) })
  ctx.res.end(ctx.method === 'HEAD' ? undefined : body)
}

export function openApiHandlers(deps: OpenApiDeps): Map<string, LocalHandler> {
  const built = new WeakMap<RouteTable, { config: Readonly<Config>; published: number; texts: Map<string, string> }>()
  const files = new Map<string, Buffer>()

  function documentText(options: Omit<DocumentOptions, 'config'>): string {
    const table = deps.routes()
    const config = deps.config()
    const published = deps.documents?.version() ?? 0
    let cache = built.get(table)
    if (!cache || cache.config !== config || cache.published !== published) {
      cache = { config, published, texts: new Map() }
      built.set(table, cache)
    }
    const key = `${options.generation} ${options.release ?? ''} ${options.versions ?? ''}`
    let text = cache.texts.get(key)
    if (text === undefined) {
      const documents = deps.documents
      text = JSON.stringify(buildDocument(table.listed, { ...options, config, ...(documents ? { described: (name: string) => documents.state(name) } : {}) }))
      cache.texts.set(key, text)
    }
    return text
  }

  const document: LocalHandler = async (ctx) => {
    const versions = new URLSearchParams(ctx.search).get('versions') ?? 'default'
    if (!(VERSION_SETS as readonly string[]).includes(versions)) throw invalidInput(`"versions" must be one of [${VERSION_SETS.join(', ')}]`)
    const generation = ctx.generation ?? 'header'
    const text = documentText({
      generation,
      ...(generation === 'path' && ctx.release !== undefined ? { release: ctx.release } : {}),
      ...(generation === 'header' ? { versions: versions as (typeof VERSION_SETS)[number] } : {}),
    })
    send(ctx, 'application/json; charset=utf-8', text, { 'cache-control': 'no-cache' })
  }

  const page: LocalHandler = async (ctx) => {
    send(ctx, 'text/html; charset=utf-8', PAGE, { 'content-security-policy': CSP, 'cache-control': 'no-cache' })
  }

  const asset: LocalHandler = async (ctx) => {
    const name = ctx.endpointPath?.slice('docs/'.length) ?? ''
    // docs/ is the explorer's page under its own name: sent there, the page's relative links work
    if (name === '' && ctx.path.startsWith('/api/') && ctx.path.endsWith('/docs/')) {
      const location = ctx.path.slice(0, -1) + (ctx.search ? `?${ctx.search}` : '')
      ctx.res.writeHead(308, { ...ctx.responseHeaders, location, 'content-length': '0', 'cache-control': 'no-cache' })
      ctx.res.end()
      return
    }
    if (name === 'init.js') return send(ctx, 'text/javascript; charset=utf-8', INIT_JS, { 'cache-control': 'no-cache' })
    const type = ownValue(ASSETS, name)
    if (type === undefined) throw notFound()
    let body = files.get(name)
    if (body === undefined) {
      body = readFileSync(join(swaggerUiDir(), name))
      files.set(name, body)
    }
    send(ctx, type, body, { 'cache-control': 'public, max-age=3600' })
  }

  return new Map([
    [handlerKey('GET', 'openapi.json'), document],
    [handlerKey('GET', 'docs'), page],
    [handlerKey('GET', 'docs/*'), asset],
  ])
}
