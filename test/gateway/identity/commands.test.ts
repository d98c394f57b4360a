/** The admin command line: user create / passwd and apikey create, on a real database. */
import t from 'tap'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freshPostgres } from '../../helpers/db.js'
import { userCommand, parseScopes } from '../../../src/commands/user.js'
import { apikeyCommand } from '../../../src/commands/apikey.js'
import { parseCommandArgs } from '../../../src/commands/args.js'
import { memoryIo } from '../../commands/cli.js'
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
  const env = {
    DATABASE_URL: url,
    CONFIG_DIR: await mkdtemp(join(tmpdir(), 'netinv-cfg-')),
    DATA_DIR: await mkdtemp(join(tmpdir(), 'netinv-data-')),
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: 'first-admin-password',
    NETINV_PASSWORD: 'carol-password-1',
  }
  const io = (more: Record<string, string> = {}) => memoryIo({ ...env, ...more }).io

  t.equal(await userCommand.run(['create', 'carol', '--scopes', 'read,write', '--eula-approved'], io()), 0)
  const store = createIdentityStore(db, { clock: Date.now, refresh: { expiresIn: 100, length: 64, reuseGraceSeconds: 5 } })
  const carol = await store.users.credentials('carol')
  t.match(carol?.user, { username: 'carol', scopes: ['read', 'write'], eulaApproved: true, isAdmin: false })
  t.equal(await verifyPassword('carol-password-1', carol?.passwordHash), true)
  t.ok(await store.users.byUsername('admin'), 'the first-start admin exists even when a user was created by hand first')

  t.equal(await userCommand.run(['passwd', 'carol'], io({ NETINV_PASSWORD: 'carol-password-2' })), 0)
  t.equal(await verifyPassword('carol-password-2', (await store.users.credentials('carol'))?.passwordHash), true)
  const passwdFromStdin = memoryIo({ ...env, NETINV_PASSWORD: '' }, 'carol-password-3\nignored\n')
  t.equal(await userCommand.run(['passwd', 'carol'], passwdFromStdin.io), 0)
  t.equal(passwdFromStdin.stdout(), 'password of carol changed\n')
  t.equal(await verifyPassword('carol-password-3', (await store.users.credentials('carol'))?.passwordHash), true, 'the first line of stdin')
  const nobody = memoryIo(env)
  t.equal(await userCommand.run(['passwd', 'nobody'], nobody.io), 1)
  t.equal(nobody.stderr(), 'no user "nobody"\n')
  const mistake = memoryIo(env)
  t.equal(await userCommand.run(['frobnicate', 'x'], mistake.io), 2)
  t.match(mistake.stderr(), 'netinv user: unknown action "frobnicate"')

  const created = memoryIo(env)
  t.equal(await apikeyCommand.run(['create', 'carol', '--scopes', 'read', '--description', 'ci', '--expires-days', '2'], created.io), 0)
  const key = created.stdout().trim()
  t.match(key, /^nik_[^\n]+$/, 'the key alone on stdout')
  t.match(created.stderr(), /^API key \S+ for carol, scopes read, expires .*; shown only now:$/m)
  const stored = await store.apiKeys.byHash(secretHash(key))
  t.match(stored, { username: 'carol', scopes: ['read'], description: 'ci' })
  t.ok(stored!.expiresAt! > Date.now() + 86_400_000)
  await t.rejects(apikeyCommand.run(['create', 'carol', '--scopes', 'team'], io()), /does not hold team/)
})

t.test('break-glass: the command line works with local authentication off', async (t) => {
  const { db, url } = await freshPostgres(t)
  const configDir = await mkdtemp(join(tmpdir(), 'netinv-cfg-'))
  await writeFile(join(configDir, 'api.json'), JSON.stringify({ app: { enableLocalAuthentication: false } }))
  const env = { DATABASE_URL: url, CONFIG_DIR: configDir, DATA_DIR: await mkdtemp(join(tmpdir(), 'netinv-data-')), LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'first-admin-password', NETINV_PASSWORD: 'rescue-password-1' }
  t.equal(await userCommand.run(['create', 'rescue', '--scopes', 'read,team', '--eula-approved'], memoryIo(env).io), 0)
  const created = memoryIo(env)
  t.equal(await apikeyCommand.run(['create', 'rescue', '--scopes', 'team'], created.io), 0)
  const store = createIdentityStore(db, { clock: Date.now, refresh: { expiresIn: 100, length: 64, reuseGraceSeconds: 5 } })
  t.match(await store.apiKeys.byHash(secretHash(created.stdout().trim())), { username: 'rescue', scopes: ['team'] }, 'a key to get back in with')
})
