/** The admin command line: user create / passwd and apikey create, on a real database. */
import t from 'tap'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freshPostgres } from '../../helpers/db.js'
import { userCommand, parseScopes } from '../../../src/commands/user.js'
import { apikeyCommand } from '../../../src/commands/apikey.js'
import { parseCommandArgs } from '../../../src/commands/args.js'
import { createIdentityStore, secretHash, verifyPassword } from '../../../src/gateway/identity/index.js'

t.test('argument parsing', async (t) => {
  const spec = { ...userCommand, name: 'user' }
  t.same(parseCommandArgs(spec, ['create', 'bob', '--scopes', 'read,write', '--admin', '--email=b@x']), {
    positionals: ['create', 'bob'],
    values: { scopes: 'read,write', admin: true, email: 'b@x' },
    help: false,
  })
  t.throws(() => parseCommandArgs(spec, ['create', 'bob', '--admin', 'extra']), /unexpected argument "extra"/)
  t.throws(() => parseCommandArgs(spec, ['create', 'bob', '--scope', 'read']), /unknown option --scope \(did you mean --scopes\?\)/)
  t.same(parseScopes('write,read'), ['read', 'write'])
  t.throws(() => parseScopes('read,root'), /unknown scope "root"/)
})

t.test('user create, user passwd, apikey create', async (t) => {
  const { db, url } = await freshPostgres(t)
  const saved = { ...process.env }
  const out: string[] = []
  const err: string[] = []
  const log = console.log
  const error = console.error
  console.log = (...a: unknown[]) => void out.push(a.join(' '))
  console.error = (...a: unknown[]) => void err.push(a.join(' '))
  t.teardown(() => {
    process.env = saved
    console.log = log
    console.error = error
  })
  Object.assign(process.env, {
    DATABASE_URL: url,
    CONFIG_DIR: await mkdtemp(join(tmpdir(), 'netinv-cfg-')),
    DATA_DIR: await mkdtemp(join(tmpdir(), 'netinv-data-')),
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'first-admin-password',
    NETINV_PASSWORD: 'carol-password-1',
  })
  delete process.env.REDIS_URL

  t.equal(await userCommand.run(['create', 'carol', '--scopes', 'read,write', '--eula-approved']), 0)
  const store = createIdentityStore(db, { clock: Date.now, refresh: { expiresIn: 100, length: 64, reuseGraceSeconds: 5 } })
  const carol = await store.users.credentials('carol')
  t.match(carol?.user, { username: 'carol', scopes: ['read', 'write'], eulaApproved: true, isAdmin: false })
  t.equal(await verifyPassword('carol-password-1', carol?.passwordHash), true)
  t.ok(await store.users.byUsername('admin'), 'the first-start admin exists even when a user was created by hand first')

  process.env.NETINV_PASSWORD = 'carol-password-2'
  t.equal(await userCommand.run(['passwd', 'carol']), 0)
  t.equal(await verifyPassword('carol-password-2', (await store.users.credentials('carol'))?.passwordHash), true)
  t.equal(await userCommand.run(['passwd', 'nobody']), 1)
  t.equal(await userCommand.run(['frobnicate', 'x']), 2)

  out.length = 0
  t.equal(await apikeyCommand.run(['create', 'carol', '--scopes', 'read', '--description', 'ci', '--expires-days', '2']), 0)
  const key = out.at(-1)!
  t.match(key, /^nik_/)
  const stored = await store.apiKeys.byHash(secretHash(key))
  t.match(stored, { username: 'carol', scopes: ['read'], description: 'ci' })
  t.ok(stored!.expiresAt! > Date.now() + 86_400_000)
  await t.rejects(apikeyCommand.run(['create', 'carol', '--scopes', 'team']), /does not hold team/)
})
