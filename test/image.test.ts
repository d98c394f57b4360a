/**
 * The container image without a Docker engine: read the Dockerfile, perform its runtime stage's
 * steps in a temporary directory (copy what it copies, the compiled output of the build stage,
 * the production-only `npm ci` from the local npm cache), start its command and expect
 * /healthz and /api/version to answer; then SIGTERM ends the process cleanly.
 */
import t from 'tap'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { NODE_FLAGS } from '../src/shared/node-flags.js'
import { spawnOwned } from './helpers/owned.js'
import { staleReason } from '../scripts/build-stamp.mjs'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '..')

interface Instruction {
  op: string
  args: string
}
interface Stage {
  name: string
  instructions: Instruction[]
}

/** Stages of a Dockerfile: continuation lines joined, comments dropped. */
function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
  const stages: Stage[] = []
  for (const line of logical) {
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? []
    if (op.toUpperCase() === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? '', instructions: [] })
    else stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args })
  }
  return stages
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() => resolvePort(typeof addr === 'object' && addr ? addr.port : 0))
    })
  })
}

const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))
const build = stages.find((s) => s.name === 'build')
const runtime = stages.find((s) => s.name === 'runtime')

t.test('the Dockerfile builds in one stage and runs non-root on production dependencies in another', async (t) => {
  t.ok(build && runtime, 'build and runtime stages')
  t.ok(build!.instructions.some((i) => i.op === 'RUN' && i.args.includes('npm run build')), 'build stage compiles')
  const runs = runtime!.instructions.filter((i) => i.op === 'RUN').map((i) => i.args)
  t.ok(runs.some((r) => /npm ci\b.*--omit=dev/.test(r)), 'runtime installs production dependencies only')
  const user = runtime!.instructions.filter((i) => i.op === 'USER').at(-1)?.args ?? 'root'
  t.notMatch(user, /^(root|0)(:|$)/, `runs as ${user}, not root`)
  const copies = runtime!.instructions.filter((i) => i.op === 'COPY').map((i) => i.args)
  t.notOk(copies.some((c) => /\bsrc\b/.test(c) && !c.includes('--from')), 'no sources in the runtime image')
  t.ok(copies.some((c) => c.startsWith('--from=build') && c.includes('dist')), 'the compiled output comes from the build stage')
  const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  t.match(dockerignore, /^\*$/m, '.dockerignore admits only what it lists')
})

t.test('install and start as the image does, then /healthz answers', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'netinv-image-'))
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }))
  const app = join(tmp, 'app')
  mkdirSync(app)

  // Build stage: the compiled output of `npm run build`, the checkout's own when it is current
  // (npm ci built it), else compiled here (tsc -p tsconfig.build.json).
  let built = ROOT
  if (staleReason(ROOT) !== undefined) {
    built = join(tmp, 'build')
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(built, 'dist')], { cwd: ROOT })
  }

  const env: Record<string, string> = {}
  let command: string[] = []
  let entrypoint: string[] = []
  for (const { op, args } of runtime!.instructions) {
    if (op === 'ENV') {
      for (const m of args.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!
    } else if (op === 'COPY') {
      const parts = args.split(/\s+/)
      const from = parts.find((p) => p.startsWith('--from='))
      const paths = parts.filter((p) => !p.startsWith('--'))
      const dest = join(app, paths.pop()!)
      for (const src of paths) {
        const source = from ? join(built, src.replace(/^\/app\//, '')) : join(ROOT, src)
        const target = dest.endsWith('/') || paths.length > 1 ? join(dest, src.split('/').at(-1)!) : dest
        cpSync(source, target, { recursive: true })
      }
    } else if (op === 'RUN') {
      for (const step of args.split('&&').map((s) => s.trim())) {
        if (!step.startsWith('npm ci')) continue // user creation and cache cleaning need root
        const npmArgs = [...step.split(/\s+/).slice(1), '--prefer-offline']
        await run('npm', npmArgs, { cwd: app, env: { ...process.env, npm_config_update_notifier: 'false' } })
      }
    } else if (op === 'ENTRYPOINT') entrypoint = JSON.parse(args) as string[]
    else if (op === 'CMD') command = JSON.parse(args) as string[]
  }

  t.ok(existsSync(join(app, 'dist/src/cli.js')), 'the compiled entry point is in place')
  t.ok(existsSync(join(app, 'node_modules/pino')), 'production dependencies installed')
  t.notOk(existsSync(join(app, 'node_modules/typescript')), 'no development dependencies')
  t.notOk(existsSync(join(app, 'src')), 'no sources')
  t.same([...entrypoint, ...command], ['node', ...NODE_FLAGS, 'dist/src/cli.js', 'serve'])

  const port = await freePort()
  const [exe, ...rest] = [...entrypoint, ...command]
  const child = spawnOwned(exe === 'node' ? process.execPath : exe!, rest, {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      ADMIN_PORT: '0',
      DATA_DIR: join(tmp, 'data'),
      CONFIG_DIR: join(app, env.CONFIG_DIR?.replace(/^\/app\/?/, '') ?? 'config'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })

  // Poll until the server answers or the process dies (the tap timeout bounds a hang).
  let status = 0
  while (child.exitCode === null) {
    status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) break
    await new Promise((r) => setTimeout(r, 200))
  }
  t.equal(status, 200, `GET /healthz answers 200\n${output}`)
  const version = await fetch(`http://127.0.0.1:${port}/api/version`).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }))
  t.equal(version.status, 200, 'the gateway answers GET /api/version with the shipped config')
  t.match(version.body, { apiVersion: /^v\d+\.\d+$/ })

  child.kill('SIGTERM')
  t.equal(await exited, 0, `SIGTERM ends the process cleanly\n${output}`)
})
