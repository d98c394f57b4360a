/**
 * `npm start` builds once: scripts/built.mjs runs the build only when the stamp of the last build
 * is missing or older than a source (src/, web/, package files), and says why. Run in a copy of
 * the script in a temporary package whose `build` counts its runs and writes the stamp as the
 * real one does.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }

t.test('npm start checks the build instead of running it; the build ends with the stamp; npm ci builds', async (t) => {
  t.match(pkg.scripts.start, /^node scripts\/built\.mjs && node /)
  t.notMatch(pkg.scripts.start, /npm run/, 'no build on every start')
  t.match(pkg.scripts.build, /&& node scripts\/built\.mjs --stamp$/, 'the stamp is the last step of the build')
  t.equal(pkg.scripts.prepare, 'node scripts/built.mjs', 'npm ci builds once (prepare)')
})

t.test('builds when there is no build, not again until a source changes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-built-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'scripts'))
  for (const script of ['built.mjs', 'build-stamp.mjs']) copyFileSync(join(ROOT, 'scripts', script), join(dir, 'scripts', script))
  mkdirSync(join(dir, 'src/inner'), { recursive: true })
  writeFileSync(join(dir, 'src/inner/a.ts'), 'export {}\n')
  const build = `node -e "require('fs').appendFileSync('builds', 'x')" && node scripts/built.mjs --stamp`
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { build } }))
  const check = () => run(process.execPath, ['scripts/built.mjs'], { cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' } })
  const builds = () => {
    try {
      return readFileSync(join(dir, 'builds'), 'utf8').length
    } catch {
      return 0
    }
  }
  // every input dated in the past: the stamp written now is newer
  const past = new Date(Date.now() - 3600_000)
  for (const f of ['src/inner/a.ts', 'src/inner', 'src', 'package.json']) utimesSync(join(dir, f), past, past)

  let r = await check()
  t.equal(builds(), 1, 'no build yet: built')
  t.match(r.stderr, /netinv: building \(no build yet\)/)
  r = await check()
  t.equal(builds(), 1, 'built tree: no build')
  t.equal(r.stderr, '', 'and nothing said')

  const future = new Date(Date.now() + 60_000)
  utimesSync(join(dir, 'src/inner/a.ts'), future, future)
  r = await check()
  t.equal(builds(), 2, 'a changed source: built again')
  t.match(r.stderr, /src\/inner\/a\.ts changed since the last build/)

  mkdirSync(join(dir, 'web'))
  writeFileSync(join(dir, 'web/page.tsx'), 'export {}\n')
  utimesSync(join(dir, 'web/page.tsx'), new Date(Date.now() + 120_000), new Date(Date.now() + 120_000))
  r = await check()
  t.equal(builds(), 3, 'web/ is a source too')
  t.match(r.stderr, /web\/page\.tsx changed/)
})
