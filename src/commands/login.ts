/**
 * `netinv login [--username u] [--url url]`: `POST auth/login`, the token pair stored for the
 * address (src/client/session.ts) for the other client commands, which renew it when the access
 * token expires. `netinv logout`: `POST auth/logout` (revokes the refresh token) and forgets it.
 */
import { createInterface } from 'node:readline/promises'
import { ApiClient, ClientError, DEFAULT_URL, normalizeUrl } from '../client/api.js'
import { readSessionFile, removeSession, saveSession, sessionPath } from '../client/session.js'
import { stringOption, UsageError, type Command } from './args.js'
import { ssoLogin } from './login-sso.js'
import { clientCommand } from './client-command.js'
import type { CommandIo, InputStream } from './io.js'

/** Reads a line on the terminal without echoing it. */
async function promptHidden(question: string, io: CommandIo): Promise<string> {
  const stdin = io.stdin
  io.stderr.write(question)
  stdin.setRawMode?.(true)
  stdin.setEncoding('utf8')
  stdin.resume()
  let value = ''
  try {
    return await new Promise<string>((resolve, reject) => {
      stdin.on('data', (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n') return resolve(value)
          if (ch === '\u0003' || ch === '\u0004') return reject(new ClientError('login cancelled'))
          value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch
        }
      })
    })
  } finally {
    io.stderr.write('\n')
    stdin.removeAllListeners('data')
    stdin.setRawMode?.(false)
    stdin.pause()
  }
}

async function firstLineOfStdin(stdin: InputStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? ''
}

async function readUsername(given: string | undefined, io: CommandIo): Promise<string> {
  const username = given ?? io.env.NETINV_USERNAME
  if (username) return username
  if (!io.stdin.isTTY) throw new UsageError('give --username (or NETINV_USERNAME)')
  const rl = createInterface({ input: io.stdin, output: io.stderr })
  try {
    return (await rl.question('Username: ')).trim()
  } finally {
    rl.close()
  }
}

async function readLoginPassword(io: CommandIo): Promise<string> {
  if (io.env.NETINV_PASSWORD) return io.env.NETINV_PASSWORD
  const password = io.stdin.isTTY ? await promptHidden('Password: ', io) : await firstLineOfStdin(io.stdin)
  if (password === '') throw new UsageError('no password: set NETINV_PASSWORD, type it on a terminal or give it as the first line of stdin')
  return password
}

export const loginCommand: Command = clientCommand(
  {
    name: 'login',
    summary: 'log in to the API and keep the tokens for the other client commands (renewed with the refresh token)',
    description:
      'Exchanges username and password for an access and a refresh token (POST auth/login) and stores them,\n' +
      'readable by you only, for this address. The password comes from NETINV_PASSWORD, a prompt on a\n' +
      'terminal, or the first line of stdin; never from the arguments. With --sso, the login goes through\n' +
      'a single sign-on provider instead: open the address shown and enter the code there.',
    positionals: [{ name: 'provider', optional: true, description: 'with --sso: the single sign-on provider (default: the only one configured)' }],
    options: {
      username: { type: 'string', value: 'name', description: 'the user (default: NETINV_USERNAME, else asked)' },
      sso: { type: 'boolean', description: 'log in through a single sign-on provider: enter the code shown at its address (device login)' },
    },
    examples: ['netinv login --url https://netinv.example.com --username admin', "NETINV_PASSWORD=... netinv login --username ci", 'netinv login --sso corp'],
  },
  async (p, _client, io) => {
    const url = normalizeUrl(stringOption(p, 'url') ?? (io.env.NETINV_URL || readSessionFile(sessionPath(io.env)).current || DEFAULT_URL))
    if (p.values.sso === true) {
      if (p.values.username !== undefined) throw new UsageError('--sso takes no --username: the provider says who you are')
      return ssoLogin(url, p.positionals[0], io)
    }
    if (p.positionals.length > 0) throw new UsageError(`unexpected argument "${p.positionals[0] ?? ''}" (a provider is named with --sso only)`)
    const username = await readUsername(stringOption(p, 'username'), io)
    const password = await readLoginPassword(io)
    const anonymous = new ApiClient(url, { kind: 'none' })
    const result = await anonymous.json<{ accessToken: string; refreshToken: string; scope?: string[] }>('POST', 'auth/login', { username, password })
    const file = sessionPath(io.env)
    saveSession(file, url, { username, accessToken: result.accessToken, refreshToken: result.refreshToken, savedAt: Date.now() })
    io.stdout.write(`logged in to ${url} as ${username}${result.scope ? ` (scopes ${result.scope.join(', ') || 'none'})` : ''}\n`)
    if (io.env.NETINV_TOKEN) io.stderr.write('note: NETINV_TOKEN is set; the client commands use that API key instead of this login\n')
    return 0
  },
  false,
)

export const logoutCommand: Command = clientCommand(
  {
    name: 'logout',
    summary: 'log out: revoke the stored refresh token (POST auth/logout) and forget the login',
  },
  async (_p, client, io) => {
    const file = sessionPath(io.env)
    if (!client.username) {
      io.stdout.write(`not logged in to ${client.url}\n`)
      return 0
    }
    // an expired login is gone on the server too: forget it all the same
    const expired = (err: unknown) => {
      if (err instanceof ClientError && err.status === 401) return undefined
      throw err
    }
    const res = await client.request('POST', 'auth/logout').catch(expired)
    if (res && !res.ok && res.status !== 401) throw new ClientError(`logout failed: HTTP ${res.status} ${await res.text()}`, res.status)
    removeSession(file, client.url)
    io.stdout.write(`logged out of ${client.url}\n`)
    return 0
  },
  false,
)
