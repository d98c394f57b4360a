/**
 * The top of the command line as a user meets it: --help and --version on stdout with exit 0,
 * `netinv <command> --help` for every command (servers included: help, not a start), unknown
 * commands and options as errors with a suggestion (exit 2), and docs/cli.md up to date. A few
 * runs are child processes (src/cli.ts itself: its output and exit status); the rest run the same
 * command line in this process.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { commands } from '../../src/commands/index.js'
import { CLI_DOC_PATH, renderCliDoc } from '../../src/commands/help.js'
import { RELEASE_VERSION } from '../../src/shared/product.js'
import { netinv, netinvHere, tempHome } from './cli.js'

t.test('docs/cli.md is generated from the command table (npm run docs)', async (t) => {
  t.equal(readFileSync(CLI_DOC_PATH, 'utf8'), renderCliDoc(commands))
})

t.test('netinv --help, --version and mistakes', async (t) => {
  const env = { HOME: tempHome(t) }
  const help = await netinv(['--help'], env)
  t.equal(help.code, 0)
  t.equal(help.stderr, '')
  for (const name of Object.keys(commands)) t.match(help.stdout, new RegExp(`^  ${name} +\\S`, 'm'), `lists ${name}`)
  t.same(await netinvHere(['--help'], env), help, 'in this process: the same run')
  t.equal((await netinvHere([], env)).stdout, help.stdout, 'no command: the same help')
  t.equal((await netinvHere(['-h'], env)).stdout, help.stdout)
  const query = await netinvHere(['help', 'query'], env)
  t.same([query.code, query.stdout.split('\n')[0]], [0, 'usage: netinv query [table] [options]'], 'netinv help <command>')
  const version = await netinv(['--version'], env)
  t.same([version.code, version.stdout], [0, `netinv ${RELEASE_VERSION}\n`])
  t.same(await netinvHere(['--version'], env), version)
  const typo = await netinv(['snapshot'], env)
  t.same([typo.code, typo.stdout], [2, ''])
  t.match(typo.stderr, 'netinv: unknown command "snapshot" (did you mean snapshots?)')
  t.same(await netinvHere(['snapshot'], env), typo, 'in this process: the same run')
  const option = await netinvHere(['--verison'], env)
  t.equal(option.code, 2)
  t.match(option.stderr, 'unknown option --verison (did you mean --version?)')
})

t.test('netinv <command> --help for every command', async (t) => {
  const env = { HOME: tempHome(t) }
  for (const name of Object.keys(commands)) {
    const r = await netinvHere([name, '--help'], env)
    t.equal(r.code, 0, `${name} --help exits 0 ${r.stderr}`)
    t.match(r.stdout, new RegExp(`^usage: netinv ${name}\\b`), `${name}: the help on stdout`)
    t.match(r.stdout, /-h, --help/)
  }
})

t.test('commands that take no words refuse them; admin commands are strict too', async (t) => {
  const env = { HOME: tempHome(t) }
  const serve = await netinvHere(['serve', '--prot', '1'], env)
  t.equal(serve.code, 2, 'serve does not start with an unknown option')
  t.match(serve.stderr, 'netinv serve: unknown option --prot\nrun "netinv serve --help" for usage')
  const user = await netinvHere(['user', 'create', 'bob', '--scope', 'read'], env)
  t.equal(user.code, 2)
  t.match(user.stderr, 'netinv user: unknown option --scope (did you mean --scopes?)')
  const lab = await netinvHere(['lab', 'upp'], env)
  t.equal(lab.code, 2)
  t.match(lab.stderr, 'netinv lab: unknown action "upp"; actions are up, down, clean')
})
