/**
 * The README's first steps, pasted in order on a fresh install: its `curl` story and its command
 * line block run in bash (`set -euo pipefail`: a failing curl | jq step fails the test) against a
 * real `netinv serve` on an empty data directory. Only what a reader would type differently is
 * replaced: the port (a free one instead of 8080), the admin password (given to the server as
 * ADMIN_PASSWORD), the checkout (this repository; the files the blocks write go to a temporary
 * directory). The block of a real network needs SNMP devices and is not run here (the lab tests
 * run discoveries of real routers).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import t from 'tap'
import { dirsEnv, serve, tempDirs } from './e2e/process.js'
import { spawnOwned } from './helpers/owned.js'
import { hasCommand, testNeeding } from './helpers/requirements.js'

const ROOT = resolve(import.meta.dirname, '..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const PASSWORD = 'readme-admin-password'

/** The ```sh blocks of the README, in order. */
const blocks = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
const story = blocks.find((b) => b.includes('BASE=http://localhost:8080/api'))
const commandLine = blocks.find((b) => b.includes('export NETINV_URL='))

t.test('the README has its curl story and its command line block', async (t) => {
  t.ok(story, 'the curl story')
  t.ok(commandLine, 'the command line block')
  t.match(story!, /ADMIN_PASSWORD='the admin password'/, 'the password line a reader edits')
  // a bare `netinv` is "command not found" in a checkout: the block defines it before its first use
  const lines = commandLine!.split('\n')
  const defined = lines.findIndex((l) => /\bnetinv\(\) \{/.test(l))
  const used = lines.findIndex((l) => /^(\w+=\$\()?netinv /.test(l))
  t.ok(defined >= 0 && defined < used, 'netinv is defined before it is used')
})

const missing = [['curl', hasCommand('curl')], ['jq', hasCommand('jq')]].filter(([, ok]) => !ok).map(([name]) => `${name} (apt-get install ${name})`)
if (!existsSync(join(ROOT, 'dist/src/cli.js'))) missing.push('the build (npm run build; npm ci runs it)')

/** How long the README's steps may take before the run is stopped and reported (tap's own limit per file is 600 s). */
const README_LIMIT_MS = 420_000

testNeeding(t, 'every step of the README works pasted in order on a fresh install', missing.length ? missing.join(', ') : undefined, async (t) => {
  const dirs = tempDirs(t)
  const served = await serve(t, { ...dirsEnv(dirs), ADMIN_PASSWORD: PASSWORD })
  const port = new URL(served.url).port
  const work = mkdtempSync(join(tmpdir(), 'netinv-readme-'))
  t.teardown(() => rmSync(work, { recursive: true, force: true }))
  // every command the shell runs goes to a file of its own (not to the output the steps check),
  // so that a failed or stuck run says where it was
  const trace = join(work, 'xtrace')
  const script = ['set -euo pipefail', `exec 9>'${trace}'`, 'BASH_XTRACEFD=9', 'set -x', story!, commandLine!]
    .join('\n')
    .replaceAll('http://localhost:8080', `http://127.0.0.1:${port}`)
    .replace("ADMIN_PASSWORD='the admin password'", `ADMIN_PASSWORD='${PASSWORD}'`)
    .replace('NETINV_CHECKOUT=$PWD', `NETINV_CHECKOUT='${ROOT}'`)
  const child = spawnOwned('bash', ['-c', script], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', HOME: work, NETINV_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
  // A step that never ends (a job polled for ever) ends the run here, with what it did so far.
  const limit = setTimeout(() => child.kill('SIGKILL'), README_LIMIT_MS)
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  clearTimeout(limit)
  const lastCommands = () => (existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').slice(-25).join('\n') : '')
  t.equal(code, 0, code === 0 ? 'the blocks ran to their end' : `the blocks ran to their end\n--- last commands\n${lastCommands()}\n--- stderr\n${err}\n--- stdout (end)\n${out.slice(-3000)}`)
  t.match(out, /"name": "first"/, 'step 3: the snapshot is listed')
  t.match(out, /"table": "inventory\/interfaces"/, 'step 6: the changes between the two discoveries')
  t.match(out, /"diff":/, 'step 6: the changed rows')
  t.ok(readFileSync(join(work, 'devices.csv'), 'utf8').startsWith('hostname,siteName,vendor,model'), 'step 5: the CSV file')
  t.match(out, /logged in to http:\/\/127\.0\.0\.1:\d+ as admin/, 'the command line logs in')
  t.ok(existsSync(join(work, 'down.csv')), 'the command line writes its CSV')
})
