/**
 * `netinv login --sso [provider]`: the login through a single sign-on provider for a command line
 * (device authorization grant, RFC 8628). The gateway runs the grant, so the client secret stays
 * on the server: POST auth/sso/<provider>/device answers a code for the person to enter at the
 * provider's address (printed here), and this command polls POST auth/sso/<provider>/device/token
 * at the interval the gateway says until the person has logged in there; the session it answers
 * is stored as `netinv login` stores one.
 */
import { ApiClient, ClientError, errorOf } from '../client/api.js'
import { printable } from '../client/output.js'
import { saveSession, sessionPath } from '../client/session.js'
import { UsageError } from './args.js'
import type { CommandIo } from './io.js'
import type { DeviceStart } from '../shared/sso-device.js'

interface LoginResult {
  accessToken: string
  refreshToken: string
  scope?: string[]
}

/** The provider to use when none is named: the only one configured. */
async function onlyProvider(client: ApiClient): Promise<string> {
  const { sso } = await client.json<{ sso: { name: string }[] }>('GET', 'auth/providers')
  if (sso.length === 1 && sso[0]) return sso[0].name
  if (sso.length === 0) throw new ClientError(`${client.url} has no single sign-on provider configured`)
  throw new UsageError(`name the provider: netinv login --sso <provider> (one of ${sso.map((p) => p.name).join(', ')})`)
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new ClientError('login cancelled'))
    }, { once: true })
  })

export async function ssoLogin(url: string, named: string | undefined, io: CommandIo): Promise<number> {
  const client = new ApiClient(url, { kind: 'none' })
  const provider = named ?? (await onlyProvider(client))
  const path = `auth/sso/${encodeURIComponent(provider)}/device`
  const started = await client.json<DeviceStart>('POST', path)
  const minutes = Math.max(1, Math.round(started.expiresIn / 60))
  const where = started.verificationUriComplete
    ? `To log in, open ${started.verificationUriComplete}\nor open ${started.verificationUri} and enter the code ${started.userCode}\n`
    : `To log in, open ${started.verificationUri} and enter the code ${started.userCode}\n`
  io.stderr.write(printable(`${where}Waiting for the login at ${provider} (the code is valid for ${minutes} minute${minutes === 1 ? '' : 's'})...`) + '\n')
  const cancel = new AbortController()
  const stopListening = io.onInterrupt(() => cancel.abort())
  let result: LoginResult
  try {
    let interval = started.interval
    for (;;) {
      await sleep(interval * 1000, cancel.signal)
      const res = await client.request('POST', `${path}/token`, { body: { deviceRequest: started.deviceRequest }, signal: cancel.signal })
      if (res.status === 202) {
        interval = Math.max(1, ((await res.json()) as { interval?: number }).interval ?? interval)
        continue
      }
      // The provider unreachable for a moment: the login stays pending at the gateway.
      if (res.status === 503) {
        await res.body?.cancel()
        continue
      }
      if (!res.ok) throw await errorOf(res)
      result = (await res.json()) as LoginResult
      break
    }
  } catch (err) {
    if (!cancel.signal.aborted) throw err
    io.stderr.write('login cancelled\n')
    return 130
  } finally {
    stopListening()
  }
  const me = await fetch(`${url}/api/users/me`, { headers: { authorization: `Bearer ${result.accessToken}`, accept: 'application/json' } })
  if (!me.ok) throw await errorOf(me)
  const { username } = (await me.json()) as { username: string }
  saveSession(sessionPath(io.env), url, { username, accessToken: result.accessToken, refreshToken: result.refreshToken, savedAt: Date.now() })
  io.stdout.write(`logged in to ${url} as ${username} through ${provider}${result.scope ? ` (scopes ${result.scope.join(', ') || 'none'})` : ''}\n`)
  if (io.env.NETINV_TOKEN) io.stderr.write('note: NETINV_TOKEN is set; the client commands use that API key instead of this login\n')
  return 0
}
