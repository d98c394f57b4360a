/**
 * `netinv apikey create <username> --scopes read [--description text] [--expires-days N]`
 * prints the key once: it is stored only as a hash.
 */
import { SCOPES } from '../shared/manifest.js'
import type { Command } from './index.js'
import { loadRuntime } from './runtime.js'
import { parseArgs, parseScopes, withIdentity } from './user.js'

export const apikeyCommand: Command = {
  summary: 'apikey create <user> --scopes a,b [--description text] [--expires-days N]',
  async run(args) {
    const { positional, flags } = parseArgs(args)
    const [action, username] = positional
    if (action !== 'create' || !username) {
      console.error(`usage: netinv apikey create <username> --scopes ${SCOPES.join(',')} [--description text] [--expires-days N]`)
      return 2
    }
    let expiresAt: number | null = null
    if (flags['expires-days'] !== undefined) {
      const days = Number(flags['expires-days'])
      if (!Number.isFinite(days) || days <= 0) throw new Error('--expires-days must be a positive number')
      expiresAt = Date.now() + Math.round(days * 86_400_000)
    }
    const rt = loadRuntime('netinv-apikey')
    return withIdentity(rt, async (store) => {
      const user = await store.users.byUsername(username)
      if (!user) {
        console.error(`no user "${username}"`)
        return 1
      }
      const scopes = flags.scopes === undefined ? user.scopes : parseScopes(flags.scopes)
      const beyond = scopes.filter((s) => !user.scopes.includes(s))
      if (beyond.length > 0) throw new Error(`${user.username} does not hold ${beyond.join(', ')}; a key cannot exceed its owner`)
      const { apiKey, key } = await store.apiKeys.create({
        userId: user.id,
        scopes,
        description: typeof flags.description === 'string' ? flags.description : '',
        expiresAt,
      })
      console.error(`API key ${apiKey.id} for ${user.username}, scopes ${scopes.join(',')}${expiresAt ? `, expires ${new Date(expiresAt).toISOString()}` : ''}; shown only now:`)
      console.log(key)
      return 0
    })
  },
}
