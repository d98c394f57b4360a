/**
 * What the browser tests of the web interface share: the interface built from web/, a guard that
 * fails a test on a console error, a content-policy violation or an unexpected error answer,
 * screenshots under .tap/screenshots/web/, and logging in through the page.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { Test } from 'tap'
import { ROOT, spawnOwned } from '../helpers/owned.js'

export const CHROMIUM = '/usr/bin/chromium'
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const SHOTS = join(ROOT, '.tap', 'screenshots', 'web')

export async function buildInterface(t: Test): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'netinv-ui-'))
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const child = spawnOwned(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
  child.stdout!.resume()
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`the interface did not build (exit ${code}):\n${err}`)
  return out
}

/**
 * Fails the test on a console error, an uncaught exception, a content-policy violation, or an
 * answer of 400 or more that is not in `expected` ("METHOD /path STATUS").
 */
export function guard(t: Test, page: Page, expected: RegExp[] = []): () => void {
  const problems: string[] = []
  void page.addInitScript("document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('response', (r) => {
    if (r.status() < 400) return
    const what = `${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`
    if (!expected.some((e) => e.test(what))) problems.push(`unexpected answer: ${what}`)
  })
  return () => t.same(problems, [], 'no console error, policy violation or unexpected error answer')
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
}

export async function logIn(page: Page, base: string, username: string, password: string, path = '/'): Promise<void> {
  await page.goto(`${base}${path}`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/** Why the browser tests cannot run here, or undefined. */
export function existsChromium(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `chromium (${CHROMIUM}; apt-get install chromium)`
}

/**
 * How many pixels of `clip` (page coordinates) are dark (each of red, green and blue below 128)
 * in a screenshot: what is painted there, which hit testing does not tell. Decoded by the page's
 * own browser (createImageBitmap), no image library.
 */
export async function darkPixels(page: Page, clip: { x: number; y: number; width: number; height: number }): Promise<number> {
  const png = (await page.screenshot({ clip })).toString('base64')
  // a string, evaluated in the page: the test's own types know nothing of the DOM
  const count = await page.evaluate(`(async () => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(png)}), (c) => c.charCodeAt(0))
    const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }))
    const canvas = new OffscreenCanvas(image.width, image.height)
    const g = canvas.getContext('2d')
    g.drawImage(image, 0, 0)
    const d = g.getImageData(0, 0, image.width, image.height).data
    let dark = 0
    for (let i = 0; i < d.length; i += 4) if (d[i] < 128 && d[i + 1] < 128 && d[i + 2] < 128) dark++
    return dark
  })()`)
  return count as number
}
