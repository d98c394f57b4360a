/**
 * Every launcher of the product passes NODE_FLAGS to node: the binary's first line (run here as
 * an executable, so the `env -S` split is proven on this system), `npm start` and the image's
 * entry point (whose start is tested in test/image.test.ts).
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { NODE_FLAGS } from '../../src/shared/node-flags.js'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

t.test('the netinv binary starts node with the flags', async (t) => {
  const shebang = read('src/cli.ts').split('\n')[0]!
  t.equal(shebang, `#!/usr/bin/env -S node ${NODE_FLAGS.join(' ')}`)
  const dir = mkdtempSync(join(tmpdir(), 'netinv-shebang-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const script = join(dir, 'netinv.mjs')
  writeFileSync(script, `${shebang}\nconsole.log(JSON.stringify(process.execArgv))\n`)
  chmodSync(script, 0o755)
  const execArgv = JSON.parse(execFileSync(script, { encoding: 'utf8', env: { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` } })) as string[]
  t.same(execArgv, NODE_FLAGS, 'run as an executable, node gets them')
})

t.test('npm start and the image pass the flags', async (t) => {
  const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> }
  t.match(pkg.scripts.start, `node ${NODE_FLAGS.join(' ')} dist/src/cli.js serve`)
  const entrypoint = /^ENTRYPOINT\s+(.*)$/m.exec(read('Dockerfile'))?.[1]
  t.same(JSON.parse(entrypoint ?? 'null'), ['node', ...NODE_FLAGS, 'dist/src/cli.js'])
})

t.test('each flag is one node accepts', async (t) => {
  for (const flag of NODE_FLAGS) t.equal(execFileSync(process.execPath, [flag, '-p', '1'], { encoding: 'utf8' }).trim(), '1', flag)
})
