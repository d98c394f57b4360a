/**
 * The web interface's files, served by the gateway on its public port outside `/api/`.
 *
 * - `/assets/<name>`: the built, content-hashed files (`Cache-Control: immutable`); an unknown
 *   one is a 404 in plain text, never the page.
 * - Any other path with a file extension in its last segment: that file of the build's top level
 *   (icons), revalidated on every use; 404 when absent.
 * - Every other GET path is a page of the interface (its addresses are the tables' `webPath`,
 *   `/snapshots`, ...): index.html, `no-cache`, so a new build is picked up at the next load.
 * - Every answer carries a strict Content-Security-Policy (nothing but this origin's own files;
 *   no inline script or style; never framed) and `nosniff`.
 * - When the interface is not built, a page answers in plain text how to build it.
 */
import { createReadStream, existsSync, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { dirname, extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': WEB_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

/** The folder `npm run build:web` writes: `dist/web` of the package that holds this module. */
export function defaultWebDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'web')
    const up = dirname(dir)
    if (up === dir) return resolve('dist', 'web')
    dir = up
  }
}

/**
 * Paths left to the API pipeline (a JSON 404 with the version headers) although outside `/api/`:
 * a first segment that starts like the API's (`/apix/...`, `/api-docs`: a client's typo is told
 * so in the API's words, not given the page), and `/metrics`, which only the admin port serves.
 */
const NOT_PAGES = /^\/(api[^/]*|metrics)(\/|$)/

/**
 * True for the paths the web interface answers: those in origin form outside the ones above.
 * `//...`, `*` and absolute-form targets stay with the API's pipeline, which refuses them as it
 * always did.
 */
export function isWebPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false
  // The API's own paths (every API request) without the regular expression.
  if (path.startsWith('/api/')) return false
  return !NOT_PAGES.test(path)
}

function text(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)), ...extra })
  res.end(body)
}

function notBuilt(dir: string): string {
  return [
    'The netinv web interface is not built.',
    '',
    `Its files are looked for in ${dir}.`,
    'Build them in the netinv folder with',
    '',
    '    npm run build',
    '',
    '(or only the interface: npm run build:web), then reload this page.',
    'The HTTP API is served under /api/ (its explorer: /api/docs).',
    '',
  ].join('\n')
}

export interface WebFiles {
  /** Answers a request for a path outside /api/. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void
}

export function webFiles(dir: string = defaultWebDir()): WebFiles {
  const root = resolve(dir)

  function file(rel: string): { path: string; size: number } | null {
    const full = resolve(root, rel)
    if (full !== root && !full.startsWith(root + sep)) return null
    try {
      const st = statSync(full)
      return st.isFile() ? { path: full, size: st.size } : null
    } catch {
      return null
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, f: { path: string; size: number }, cache: string): void {
    const type = TYPES[extname(f.path).toLowerCase()] ?? 'application/octet-stream'
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': cache, 'content-length': String(f.size) })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    const stream = createReadStream(f.path)
    stream.on('error', () => res.destroy())
    stream.pipe(res)
  }

  return {
    handle(req, res, rawPath) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        text(res, 405, `${req.method ?? ''} is not allowed here: the web interface's pages and files are read with GET.\n`, { allow: 'GET, HEAD' })
        return
      }
      let path: string
      try {
        path = decodeURIComponent(rawPath)
      } catch {
        text(res, 400, 'The path is not valid percent-encoding.\n')
        return
      }
      if (path.includes('\0') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '.')) {
        text(res, 400, 'The path may not hold "..", "." segments, backslashes or NUL.\n')
        return
      }
      const rel = path.replace(/^\/+/, '')
      if (rel.startsWith('assets/')) {
        const f = file(rel)
        if (f === null) return text(res, 404, `No such file of the web interface: ${path}\n`)
        return send(req, res, f, 'public, max-age=31536000, immutable')
      }
      // A name with a file's extension is a file, anywhere: an unknown one is 404, not the page.
      if (TYPES[extname(rel).toLowerCase()] !== undefined) {
        const f = file(rel)
        if (f === null) return text(res, 404, `No such file of the web interface: ${path}\n`)
        return send(req, res, f, 'no-cache')
      }
      const index = file('index.html')
      if (index === null) return text(res, 404, notBuilt(root))
      send(req, res, index, 'no-cache')
    },
  }
}
