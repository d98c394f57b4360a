/**
 * `netinv apikey create <username> --scopes read [--description text] [--expires-days N]`
 * prints the key once: it is stored only as a hash.
 */
import { SCOPES } from '../shared/manifest.js'
import { defineCommand, stringOption, UsageError, type Command } from './args.js'
import { loadRuntime } from './runtime.js'
import { parseScopes, withIdentity } from './user.js'

export const apikeyCommand: Command = defineCommand(
  {
    name: 'apikey',
    summary: 'apikey create <user> --scopes a,b [--description text] [--expires-days N]',
    description: 'Creates an API key of a user in the database and prints it once (it is stored only as a hash).',
    positionals: [
      { name: 'action', description: 'create' },
      { name: 'username', description: 'owner of the key' },
    ],
    options: {
      scopes: { type: 'string', value: 'a,b', description: `scopes of the key (${SCOPES.join(', ')}); default: the owner's` },
      description: { type: 'string', value: 'text', description: 'what the key is for' },
      'expires-days': { type: 'string', value: 'n', description: 'the key expires after n days (default: never)' },
    },
  },
  async (p, io) => {
    const [action, username] = p.positionals as [string, string]
    if (action !== 'create') throw new UsageError(`unknown action "${action}"; the action is create`)
    const daysText = stringOption(p, 'expires-days')
    const days = Number(daysText)
    if (daysText !== undefined && (!Number.isFinite(days) || days <= 0)) throw new UsageError('--expires-days must be a positive number')
    const expiresAt = daysText === undefined ? null : Date.now() + Math.round(days * 86_400_000)
    const rt = loadRuntime('netinv-apikey', io.env)
    return withIdentity(rt, io, async (store) => {
      const user = await store.users.byUsername(username)
      if (!user) {
        io.stderr.write(`no user "${username}"\n`)
        return 1
      }
      const scopes = stringOption(p, 'scopes') === undefined ? user.scopes : parseScopes(stringOption(p, 'scopes'))
      const beyond = scopes.filter((s) => !user.scopes.includes(s))
      if (beyond.length > 0) throw new Error(`${user.username} does not hold ${beyond.join(', ')}; a key cannot exceed its owner`)
      const { apiKey, key } = await store.apiKeys.create({
        userId: user.id,
        scopes,
        description: stringOption(p, 'description') ?? '',
        expiresAt,
      })
      io.stderr.write(`API key ${apiKey.id} for ${user.username}, scopes ${scopes.join(',')}${expiresAt ? `, expires ${new Date(expiresAt).toISOString()}` : ''}; shown only now:\n`)
      io.stdout.write(`${key}\n`)
      return 0
    })
  },
)
