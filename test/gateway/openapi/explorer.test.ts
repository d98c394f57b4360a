/**
 * The API explorer at /api/docs, in a real browser (Debian's chromium driven by playwright-core):
 * the page and Swagger UI come from the gateway itself (no other host is asked for anything), it
 * reads the gateway's OpenAPI document, and "Try it out" calls an endpoint with the API key given
 * under "Authorize".
 */
import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import t from 'tap'
import { testNeeding } from '../../helpers/requirements.js'
import { startTestGateway } from '../helpers.js'

const CHROMIUM = '/usr/bin/chromium'
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

t.test('the page and its files are served by the gateway, public, with a policy that allows nothing else', async (t) => {
  const gw = await startTestGateway(t)
  const page = await fetch(`${gw.url}/api/docs`)
  t.equal(page.status, 200)
  t.match(page.headers.get('content-type'), /^text\/html/)
  t.match(page.headers.get('content-security-policy'), /default-src 'self'/)
  const html = await page.text()
  t.notMatch(html, /https?:\/\//, 'no address of another host in the page')
  for (const [file, type] of [['swagger-ui-bundle.js', /javascript/], ['swagger-ui.css', /text\/css/], ['init.js', /javascript/]] as const) {
    const r = await fetch(`${gw.url}/api/docs/${file}`)
    t.equal(r.status, 200, file)
    t.match(r.headers.get('content-type'), type)
    t.ok((await r.arrayBuffer()).byteLength > 100, `${file} has content`)
  }
  t.equal((await fetch(`${gw.url}/api/docs/package.json`)).status, 404, 'only the explorer\'s own files')
  t.equal((await fetch(`${gw.url}/api/docs/init.js`, { method: 'POST' })).status, 405)
})

t.test('docs/ (a trailing slash) is sent to the explorer\'s page', async (t) => {
  const gw = await startTestGateway(t)
  for (const [path, location] of [
    ['/api/docs/', '/api/docs'],
    ['/api/v1/docs/', '/api/v1/docs'],
    ['/api/docs/?deepLinking=1', '/api/docs?deepLinking=1'],
  ] as const) {
    const r = await fetch(`${gw.url}${path}`, { redirect: 'manual' })
    t.equal(r.status, 308, path)
    t.equal(r.headers.get('location'), location, `${path} → ${location}`)
  }
  const followed = await fetch(`${gw.url}/api/docs/`)
  t.equal(followed.status, 200, 'a browser lands on the page')
  t.match(followed.headers.get('content-type'), /^text\/html/)
})

t.test('a name of Object.prototype under docs/ is no file: 404, never 500', async (t) => {
  const gw = await startTestGateway(t)
  for (const prefix of ['/api/docs/', '/api/v1/docs/']) {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const r = await fetch(`${gw.url}${prefix}${name}`)
      t.equal(r.status, 404, `${prefix}${name}`)
      t.match(await r.json(), { code: 'API_NOT_FOUND' })
    }
  }
})

t.test('the explorer and the document are never sniffed nor framed', async (t) => {
  const gw = await startTestGateway(t)
  for (const path of ['/api/docs', '/api/docs/init.js', '/api/docs/swagger-ui.css', '/api/openapi.json', '/api/v1/docs']) {
    const r = await fetch(`${gw.url}${path}`)
    t.equal(r.status, 200, path)
    t.equal(r.headers.get('x-content-type-options'), 'nosniff', `${path}: nosniff`)
    t.equal(r.headers.get('x-frame-options'), 'DENY', `${path}: not framed`)
  }
})

testNeeding(t, 'in chromium: the explorer lists the endpoints and "Try it out" calls one with the API key', existsSync(CHROMIUM) ? undefined : `chromium (${CHROMIUM}; apt-get install chromium)`, async (t) => {
  const gw = await startTestGateway(t)
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
  t.teardown(() => browser.close())
  const page = await browser.newPage()
  // a machine busy with other tests may take long to run Swagger UI's 1.5 MB of script: this test is about what the page does
  page.setDefaultTimeout(120_000)
  const elsewhere: string[] = []
  page.on('request', (r) => {
    if (!r.url().startsWith(gw.url) && !r.url().startsWith('data:')) elsewhere.push(r.url())
  })
  await page.goto(`${gw.url}/api/docs`)
  await page.locator('.swagger-ui .info .title').filter({ hasText: 'netinv API' }).waitFor()
  // Tags start closed (the table endpoints alone are over a hundred operations): open two.
  await page.locator('#operations-tag-tables').click()
  await page.locator('#operations-tables-postTablesInventoryDevices').waitFor()
  await page.locator('#operations-tag-snapshots').click()

  // Authorize with the API key, then try GET /snapshots (scope read).
  await page.locator('button.authorize').first().click()
  const apiKey = page.locator('.auth-container').filter({ hasText: 'X-API-Token' })
  await apiKey.locator('input').fill('reader-key')
  await apiKey.locator('button.authorize').click()
  await page.locator('.modal-ux button.close-modal').click()

  const operation = page.locator('#operations-snapshots-getSnapshots')
  await operation.locator('.opblock-summary').click()
  const answered = page.waitForResponse((r) => r.url() === `${gw.url}/api/snapshots` && r.request().method() === 'GET')
  await operation.locator('button.execute').click()
  const response = await answered
  t.equal(response.status(), 200, 'the call went through the gateway and was admitted')
  t.equal(response.request().headers()['x-api-token'], 'reader-key', 'with the API key given under Authorize')
  await operation.locator('.live-responses-table .response-col_status').filter({ hasText: '200' }).first().waitFor()
  t.same(elsewhere, [], 'nothing asked of any other host')
})
