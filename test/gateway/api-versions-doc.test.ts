import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { API_VERSIONS_DOC_PATH, renderApiVersions, tableOfConfigDir } from '../../src/gateway/api-versions-doc.js'
import { ENDPOINTS } from '../../src/shared/manifest.js'
import { CLI } from '../helpers/cli-entry.js'

t.test('docs/api-versions.md is generated from the manifest and up to date', async (t) => {
  const committed = readFileSync(API_VERSIONS_DOC_PATH, 'utf8')
  t.equal(committed, renderApiVersions(), 'stale: regenerate with `npm run docs`')
})

t.test('every endpoint and every version appears', async (t) => {
  const doc = renderApiVersions()
  for (const e of ENDPOINTS) {
    t.ok(doc.includes(`| \`${e.path}\` |`), e.path)
    for (const v of e.versions) t.ok(doc.includes(v.summary.replace(/\|/g, '\\|')), `${e.path} v${v.version}`)
  }
})

/** The api.json and route file of the operations guide's walk-through, from its JSON blocks. */
function guideExample(): { api: Record<string, unknown>; routes: Array<Record<string, unknown>> } {
  const guide = readFileSync('docs/operations.md', 'utf8')
  const section = guide.slice(guide.indexOf('## Put the gateway in front of an existing API'), guide.indexOf('## PostgreSQL and Redis'))
  const [api, routes] = [...section.matchAll(/```json\n([\s\S]*?)```/g)].slice(0, 2).map((m) => JSON.parse(m[1]!) as unknown)
  return { api: api as Record<string, unknown>, routes: routes as Array<Record<string, unknown>> }
}

function configDir(api: unknown, routes: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-guide-'))
  writeFileSync(join(dir, 'api.json'), JSON.stringify(api))
  mkdirSync(join(dir, 'routes'))
  writeFileSync(join(dir, 'routes', 'legacy.json'), JSON.stringify(routes))
  return dir
}

t.test('`netinv api-versions` prints the table of the operations guide’s example, and the error of a bad file', async (t) => {
  const { api, routes } = guideExample()
  const dir = configDir(api, routes)
  const cli = (args: string[]) => spawnSync(process.execPath, [...CLI, 'api-versions', ...args], { env: { PATH: process.env.PATH ?? '', CONFIG_DIR: dir }, encoding: 'utf8' })
  const printed = cli(['--without-inventory'])
  t.equal(printed.status, 0, printed.stderr)
  t.match(printed.stdout, '| `legacy` | route files | `/api/v<major>.<minor>/<endpoint>` | credential | `/api/v6.0/health` |')
  t.match(printed.stdout, '| `devices` | legacy (1 → /api/v6.0/) | GET (read), POST (write) |')
  t.notMatch(printed.stdout, '| `snapshots` |', 'without netinv’s inventory')
  const { table } = tableOfConfigDir(dir, true)
  t.equal(table.match('snapshots')?.endpoint.upstream, 'inventory', 'with it, both')
  t.equal(table.match('anything/else')?.endpoint.path, '*')
  t.equal(renderApiVersions(table).split('\n').filter((l) => l.includes('| legacy (')).length, routes.length, 'every entry of the route file listed')

  const bad = configDir(api, routes.map((r) => (r.path === '*' ? { ...r, methods: { GET: 'readonly' } } : r)))
  const refused = spawnSync(process.execPath, [...CLI, 'api-versions'], { env: { PATH: process.env.PATH ?? '', CONFIG_DIR: bad }, encoding: 'utf8' })
  t.equal(refused.status, 1)
  t.match(refused.stderr, 'routes/legacy.json[3] (*).methods.GET: must be one of public, authenticated, read, settings, team, write', 'the message the guide shows')
})
