/**
 * The web interface's files from the gateway, outside /api/: a page for every address that is not
 * a file (the tables' webPath included), hashed assets cached for good, a strict policy on every
 * answer, 404 for a file that is not there, and a plain-text answer on how to build it when the
 * interface is not built. The files here are made by the test (the real build is driven in
 * test/web/ui.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startTestGateway } from './helpers.js'

function builtDir(t: { teardown(f: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-web-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>netinv</title><script type="module" src="/assets/index-abc123.js"></script>')
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("netinv")')
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}')
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(tmpdir(), 'netinv-web-outside.txt'), 'outside')
  return dir
}

const POLICY = /default-src 'self'.*frame-ancestors 'none'/

t.test('pages: every address outside /api/ that is not a file is the page, never cached stale', async (t) => {
  const gw = await startTestGateway(t, { webDir: builtDir(t), upstreamUrl: null })
  for (const path of ['/', '/snapshots', '/inventory/devices', '/technology/routing/bgp/neighbors?snapshot=$last&filters=%7B%7D', '/no/such/page']) {
    const r = await fetch(`${gw.url}${path}`)
    t.equal(r.status, 200, path)
    t.match(r.headers.get('content-type'), /^text\/html/, path)
    t.equal(r.headers.get('cache-control'), 'no-cache', `${path}: revalidated at every load`)
    t.match(r.headers.get('content-security-policy'), POLICY, path)
    t.notMatch(r.headers.get('content-security-policy'), /unsafe-inline|unsafe-eval/, `${path}: no inline script or style`)
    t.equal(r.headers.get('x-content-type-options'), 'nosniff')
    t.match(await r.text(), /<title>netinv<\/title>/)
  }
  const head = await fetch(`${gw.url}/inventory/devices`, { method: 'HEAD' })
  t.equal(head.status, 200)
})

t.test('assets: hashed files are immutable; an unknown file is 404 in text, not the page', async (t) => {
  const gw = await startTestGateway(t, { webDir: builtDir(t), upstreamUrl: null })
  const js = await fetch(`${gw.url}/assets/index-abc123.js`)
  t.equal(js.status, 200)
  t.match(js.headers.get('content-type'), /^text\/javascript/)
  t.match(js.headers.get('cache-control'), /immutable/)
  t.match(js.headers.get('content-security-policy'), POLICY)
  t.equal(await js.text(), 'console.log("netinv")')
  t.match((await fetch(`${gw.url}/assets/index-abc123.css`)).headers.get('content-type'), /^text\/css/)
  const icon = await fetch(`${gw.url}/favicon.svg`)
  t.equal(icon.status, 200)
  t.equal(icon.headers.get('cache-control'), 'no-cache')
  for (const path of ['/assets/index-gone.js', '/assets/', '/missing.js', '/inventory/devices.css', '/assets/..%2f..%2fetc%2fpasswd']) {
    const r = await fetch(`${gw.url}${path}`)
    t.not(r.status, 200, path)
    t.match(r.headers.get('content-type'), /^text\/plain/, `${path}: plain text, not the page`)
  }
  for (const path of ['/assets/../../netinv-web-outside.txt', '/%2e%2e/netinv-web-outside.txt', '/..%2fnetinv-web-outside.txt']) {
    const r = await fetch(`${gw.url}${path}`)
    t.not(r.status, 200, `${path}: nothing outside the folder`)
    t.notMatch(await r.text(), /^outside$/)
  }
  const post = await fetch(`${gw.url}/inventory/devices`, { method: 'POST', body: '{}' })
  t.equal(post.status, 405)
  t.equal(post.headers.get('allow'), 'GET, HEAD')
})

t.test('/api/ is still the API: an unknown endpoint is the JSON 404', async (t) => {
  const gw = await startTestGateway(t, { webDir: builtDir(t), upstreamUrl: null })
  const r = await fetch(`${gw.url}/api/no-such-endpoint`)
  t.equal(r.status, 404)
  t.match(await r.json(), { code: 'API_NOT_FOUND' })
  t.equal((await fetch(`${gw.url}/api/version`)).status, 200)
  const tricky = await fetch(`${gw.url}//api/version`)
  t.equal(tricky.status, 400, '//api/... is still refused by the pipeline, not taken for a page')
  t.match(await tricky.json(), { code: 'API_MALFORMED_REQUEST' })
})

t.test('not built: the page says how to build it, in plain text', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-web-empty-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const gw = await startTestGateway(t, { webDir: dir, upstreamUrl: null })
  for (const path of ['/', '/inventory/devices']) {
    const r = await fetch(`${gw.url}${path}`)
    t.equal(r.status, 404, path)
    t.match(r.headers.get('content-type'), /^text\/plain/)
    const text = await r.text()
    t.match(text, /not built/)
    t.match(text, /npm run build/)
    t.match(text, dir)
  }
})
