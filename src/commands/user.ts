/**
 * `netinv user create <username> --scopes read,write [--admin] [--eula-approved] [--email a@b]`
 * `netinv user passwd <username>`
 * The password comes from NETINV_PASSWORD or the first line of stdin, never from the arguments
 * (they show in process lists and shell history).
 */
import { Redis } from 'ioredis'
import { SCOPES, type Scope } from '../shared/manifest.js'
import type { Db } from '../shared/db/index.js'
import { createIdentityStore, ensureAdmin, migrateIdentity, type IdentityEvent, type IdentityStore } from '../gateway/identity/index.js'
import { REVOCATION_CHANNEL } from '../gateway/auth/revocation.js'
import { defineCommand, flag, stringOption, UsageError, type Command } from './args.js'
import { loadRuntime, openRuntimeDb, type Runtime } from './runtime.js'
import type { CommandIo } from './io.js'

export function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined || value === '') return []
  const list = value.split(',').map((s) => s.trim())
  for (const s of list) if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope "${s}"; scopes are ${SCOPES.join(', ')}`)
  return SCOPES.filter((s) => list.includes(s))
}

export async function readPassword(env: NodeJS.ProcessEnv, stdin: NodeJS.ReadableStream): Promise<string> {
  if (env.NETINV_PASSWORD) return env.NETINV_PASSWORD
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? ''
  if (line.length < 8) throw new Error('the password (NETINV_PASSWORD or first line of stdin) must have at least 8 characters')
  return line
}

/** Opens the identity store for an admin command; changes are broadcast to running gateways. */
export async function withIdentity<T>(rt: Runtime, io: Pick<CommandIo, 'stderr'>, fn: (store: IdentityStore) => Promise<T>): Promise<T> {
  const db: Db = await openRuntimeDb(rt)
  const redis = rt.env.redisUrl ? new Redis(rt.env.redisUrl, { maxRetriesPerRequest: 1 }) : undefined
  const events: IdentityEvent[] = []
  try {
    await migrateIdentity(db)
    const store = createIdentityStore(db, { clock: Date.now, refresh: rt.config.app.refreshToken, notify: (e) => events.push(e) })
    // The first user created by hand must not stop the first-start admin from existing.
    await ensureAdmin(db, store.users, { adminPassword: rt.env.adminPassword, print: (line) => io.stderr.write(`${line}\n`) })
    const result = await fn(store)
    for (const e of events) await redis?.publish(REVOCATION_CHANNEL, JSON.stringify(e))
    return result
  } finally {
    redis?.disconnect()
    await db.close()
  }
}

export const userCommand: Command = defineCommand(
  {
    name: 'user',
    summary: 'user create <name> --scopes a,b [--admin] [--eula-approved] | user passwd <name>',
    description: 'Creates a user or sets its password, in the database (DATABASE_URL or DATA_DIR). The password comes from\nNETINV_PASSWORD or the first line of stdin, never from the arguments.',
    positionals: [
      { name: 'action', description: 'create or passwd' },
      { name: 'username', description: 'the user' },
    ],
    options: {
      scopes: { type: 'string', value: 'a,b', description: `scopes of a new user (${SCOPES.join(', ')}); none: the user is inactive` },
      admin: { type: 'boolean', description: 'the new user is an administrator' },
      'eula-approved': { type: 'boolean', description: 'the new user has approved the EULA' },
      email: { type: 'string', value: 'addr', description: 'e-mail address of the new user' },
    },
  },
  async (p, io) => {
    const [action, username] = p.positionals as [string, string]
    if (action !== 'create' && action !== 'passwd') throw new UsageError(`unknown action "${action}"; actions are create, passwd`)
    const rt = loadRuntime('netinv-user', io.env)
    const scopes = parseScopes(stringOption(p, 'scopes'))
    const password = await readPassword(io.env, io.stdin)
    return withIdentity(rt, io, async (store) => {
      if (action === 'create') {
        const email = stringOption(p, 'email')
        const user = await store.users.create({
          username,
          password,
          scopes,
          isAdmin: flag(p, 'admin'),
          eulaApproved: flag(p, 'eula-approved'),
          email: email ?? null,
        })
        io.stdout.write(`created user ${user.username} (id ${user.id}) with scopes ${user.scopes.join(',') || '(none: inactive)'}\n`)
        return 0
      }
      const user = await store.users.byUsername(username)
      if (!user) {
        io.stderr.write(`no user "${username}"\n`)
        return 1
      }
      await store.users.update(user.id, { password })
      io.stdout.write(`password of ${user.username} changed\n`)
      return 0
    })
  },
)
