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
import type { Command } from './index.js'
import { loadRuntime, openRuntimeDb, type Runtime } from './runtime.js'

export interface ParsedArgs {
  positional: string[]
  flags: Record<string, string | true>
}

/** `--name value`, `--name=value` and bare `--flag`; `booleans` never take a value. */
export function parseArgs(args: string[], booleans: readonly string[] = []): ParsedArgs {
  const positional: string[] = []
  const flags: Record<string, string | true> = {}
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith('--')) {
      positional.push(a)
      continue
    }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2)
    if (eq > 0) flags[name] = a.slice(eq + 1)
    else if (booleans.includes(name) || i + 1 >= args.length || args[i + 1]!.startsWith('--')) flags[name] = true
    else flags[name] = args[++i]!
  }
  return { positional, flags }
}

export function parseScopes(value: string | true | undefined): Scope[] {
  if (value === undefined || value === true || value === '') return []
  const list = value.split(',').map((s) => s.trim())
  for (const s of list) if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope "${s}"; scopes are ${SCOPES.join(', ')}`)
  return SCOPES.filter((s) => list.includes(s))
}

export async function readPassword(env: NodeJS.ProcessEnv = process.env, stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  if (env.NETINV_PASSWORD) return env.NETINV_PASSWORD
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? ''
  if (line.length < 8) throw new Error('the password (NETINV_PASSWORD or first line of stdin) must have at least 8 characters')
  return line
}

/** Opens the identity store for an admin command; changes are broadcast to running gateways. */
export async function withIdentity<T>(rt: Runtime, fn: (store: IdentityStore) => Promise<T>): Promise<T> {
  const db: Db = await openRuntimeDb(rt)
  const redis = rt.env.redisUrl ? new Redis(rt.env.redisUrl, { maxRetriesPerRequest: 1 }) : undefined
  const events: IdentityEvent[] = []
  try {
    await migrateIdentity(db)
    const store = createIdentityStore(db, { clock: Date.now, refresh: rt.config.app.refreshToken, notify: (e) => events.push(e) })
    // The first user created by hand must not stop the first-start admin from existing.
    await ensureAdmin(db, store.users, { adminPassword: rt.env.adminPassword, print: (line) => console.error(line) })
    const result = await fn(store)
    for (const e of events) await redis?.publish(REVOCATION_CHANNEL, JSON.stringify(e))
    return result
  } finally {
    redis?.disconnect()
    await db.close()
  }
}

export const userCommand: Command = {
  summary: 'user create <name> --scopes a,b [--admin] [--eula-approved] | user passwd <name>',
  async run(args) {
    const { positional, flags } = parseArgs(args, ['admin', 'eula-approved'])
    const [action, username] = positional
    if (!username || (action !== 'create' && action !== 'passwd')) {
      console.error('usage: netinv user create <username> --scopes read,write [--admin] [--eula-approved] [--email addr]\n       netinv user passwd <username>\n(password from NETINV_PASSWORD or stdin)')
      return 2
    }
    const rt = loadRuntime('netinv-user')
    const scopes = parseScopes(flags.scopes)
    const password = await readPassword()
    return withIdentity(rt, async (store) => {
      if (action === 'create') {
        const user = await store.users.create({
          username,
          password,
          scopes,
          isAdmin: flags.admin === true,
          eulaApproved: flags['eula-approved'] === true,
          email: typeof flags.email === 'string' ? flags.email : null,
        })
        console.log(`created user ${user.username} (id ${user.id}) with scopes ${user.scopes.join(',') || '(none: inactive)'}`)
        return 0
      }
      const user = await store.users.byUsername(username)
      if (!user) {
        console.error(`no user "${username}"`)
        return 1
      }
      await store.users.update(user.id, { password })
      console.log(`password of ${user.username} changed`)
      return 0
    })
  },
}
