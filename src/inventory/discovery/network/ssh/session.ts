/**
 * One SSH login to a device (ssh2): the host key is checked against the one recorded for the
 * address before any credential is sent, then an interactive shell (a terminal, as an operator
 * has) types the paging command, the show command and, where the device has one, the command
 * that shows its startup configuration, each after the device's prompt, and returns what they
 * printed. Every step has a time limit; nothing of a credential
 * is ever part of an error message.
 */
import { createHash } from 'node:crypto'
import ssh2, { type ClientChannel, type ConnectConfig } from 'ssh2'
import type { SshCredential } from '../../../settings/ssh-credentials.js'
import type { ConfigCommands } from './commands.js'

export type SshFailureKind = 'timeout' | 'refused' | 'auth' | 'host-key' | 'command' | 'stopped'

export class SshFailure extends Error {
  /** The server's host key when the handshake got that far. */
  hostKey: HostKey | undefined
  constructor(
    readonly kind: SshFailureKind,
    message: string,
  ) {
    super(message)
    this.name = 'SshFailure'
  }
}

export interface HostKey {
  /** Key type as the server sent it (ssh-ed25519, ecdsa-sha2-nistp256, rsa-sha2-512 …). */
  algorithm: string
  /** SHA256:<base64> of the key, as ssh-keygen -l shows it. */
  fingerprint: string
}

/** The algorithm and fingerprint of a host key blob (RFC 4253: the first field names the type). */
export function hostKeyOf(blob: Buffer): HostKey {
  const n = blob.length >= 4 ? blob.readUInt32BE(0) : 0
  const algorithm = n > 0 && n < 64 && blob.length >= 4 + n ? blob.subarray(4, 4 + n).toString('latin1') : 'unknown'
  return { algorithm, fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` }
}

/** ANSI control sequences a terminal session may print (colours, bracketed paste, cursor). */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007]*\u0007|[()][0-9A-Za-z]|[=>])/g

/** Text as lines without terminal decorations (escapes, carriage returns, backspaces). */
export function plainText(raw: string): string {
  const s = raw.replace(ANSI, '').replace(/\r+\n/g, '\n').replace(/\r/g, '')
  // a backspace erases the character before it (on its line)
  const out: string[] = []
  for (const ch of s) {
    if (ch !== '\b') out.push(ch)
    else if (out.length > 0 && out[out.length - 1] !== '\n') out.pop()
  }
  return out.join('')
}

/** A prompt: a last line ending in #, >, $ or % (and a space or none). */
const PROMPT = /(^|\n)([^\n]*[#>$%]) ?$/

/** Lines of a device's refusal of a command (IOS "% Invalid input", Junos "error:", vtysh "% Unknown command"). */
const REFUSED = /^(?:%\s*(?:Invalid|Unknown|Incomplete|Ambiguous|Permission|Authorization|Command authorization failed)|error: |syntax error)|command not found/i

/**
 * What the show command printed: the lines after the line that echoes it, up to the prompt
 * that followed. Exported for the unit test of the cutting.
 */
export function outputOf(transcript: string, command: string, prompt: string): string {
  const text = plainText(transcript)
  const lines = text.split('\n')
  const echo = lines.findIndex((l) => l.trimEnd().endsWith(command) && l.trimStart().startsWith(prompt.trim()))
  if (echo < 0) throw new SshFailure('command', `the device did not echo "${command}" after its prompt`)
  const rest = lines.slice(echo + 1)
  const end = rest.findIndex((l) => l.trimEnd() === prompt.trim())
  const out = (end < 0 ? rest : rest.slice(0, end)).join('\n')
  const refused = out.split('\n').find((l) => REFUSED.test(l.trim()))
  if (refused !== undefined) throw new SshFailure('command', `"${command}" was refused: ${refused.trim().slice(0, 200)}`)
  return out
}

export interface ConfigRead {
  text: string
  /** The startup configuration as shown, or null: no command for it, or the device refused it. */
  startup: string | null
  hostKey: HostKey
}

export interface SessionOptions {
  address: string
  credential: SshCredential
  /** The key recorded for this address and port; undefined on first contact. */
  known: HostKey | undefined
  commands: ConfigCommands
  /** Longest wait for the connection and login, and for each prompt. */
  timeoutMs: number
  signal: AbortSignal
}

function connectConfig(o: SessionOptions, onKey: (key: Buffer) => boolean): ConnectConfig {
  const c = o.credential
  return {
    host: o.address,
    port: c.port,
    username: c.user,
    ...(c.password !== null ? { password: c.password } : {}),
    ...(c.privateKey !== null ? { privateKey: c.privateKey } : {}),
    ...(c.passphrase !== null ? { passphrase: c.passphrase } : {}),
    // devices that offer only keyboard-interactive get the password as the answer
    tryKeyboard: c.password !== null,
    readyTimeout: o.timeoutMs,
    keepaliveInterval: 0,
    hostVerifier: onKey,
  }
}

/** Logs in, types the commands and returns the configuration text and the server's host key. */
export function readConfig(o: SessionOptions): Promise<ConfigRead> {
  return new Promise<ConfigRead>((resolve, reject) => {
    const conn = new ssh2.Client()
    let seen: HostKey | undefined
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const finish = (err: SshFailure | null, value?: ConfigRead) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      o.signal.removeEventListener('abort', onAbort)
      conn.end()
      conn.destroy()
      if (err) err.hostKey = seen
      if (err) reject(err)
      else resolve(value!)
    }
    const onAbort = () => finish(new SshFailure('stopped', 'stopped'))
    if (o.signal.aborted) return onAbort()
    o.signal.addEventListener('abort', onAbort, { once: true })
    conn.on('keyboard-interactive', (_name, _instructions, _lang, prompts, answer) => {
      answer(prompts.map(() => o.credential.password ?? ''))
    })
    conn.on('error', (err: Error & { level?: string; code?: string }) => {
      if (settled) return
      if (seen && o.known && seen.fingerprint !== o.known.fingerprint) {
        return finish(new SshFailure('host-key', `host key of ${o.address}:${o.credential.port} changed: ${seen.algorithm} ${seen.fingerprint}, recorded ${o.known.algorithm} ${o.known.fingerprint}; not logged in`))
      }
      if (err.level === 'client-authentication') return finish(new SshFailure('auth', `user "${o.credential.user}" was refused (${o.credential.privateKey !== null ? 'private key' : 'password'})`))
      if (err.level === 'client-timeout' || /timed out/i.test(err.message)) return finish(new SshFailure('timeout', `no SSH answer within ${o.timeoutMs} ms`))
      if (err.code === 'ECONNREFUSED' || err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') return finish(new SshFailure('refused', `SSH connection refused (${err.code})`))
      finish(new SshFailure('command', `SSH: ${err.message.slice(0, 200)}`))
    })
    conn.on('ready', () => {
      conn.shell({ term: 'vt100', rows: 200, cols: 511 }, (err, channel) => {
        if (err) return finish(new SshFailure('command', `no shell: ${err.message.slice(0, 200)}`))
        converse(channel, o, (e, read) => (e ? finish(e) : finish(null, { ...read!, hostKey: seen! })), (t) => {
          clearTimeout(timer)
          timer = t
        })
      })
    })
    timer = setTimeout(() => finish(new SshFailure('timeout', `no SSH answer within ${o.timeoutMs} ms`)), o.timeoutMs * 2)
    try {
      conn.connect(
        connectConfig(o, (key: Buffer) => {
          seen = hostKeyOf(key)
          // a changed key ends the connection before any credential is sent
          return o.known === undefined || o.known.fingerprint === seen.fingerprint
        }),
      )
    } catch (err) {
      finish(new SshFailure('command', `SSH: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`))
    }
  })
}

/**
 * Waits for the prompt, types each command after the prompt, and cuts the show commands' output.
 * A refused startup command is no error: the device does not tell (null).
 */
function converse(channel: ClientChannel, o: SessionOptions, done: (err: SshFailure | null, read?: Omit<ConfigRead, 'hostKey'>) => void, arm: (t: NodeJS.Timeout) => void): void {
  let buffer = ''
  let prompt: string | null = null
  const { show, startup } = o.commands
  const steps = [...o.commands.setup, show, ...(startup === null ? [] : [startup])]
  let step = 0
  let showFrom = -1
  let startupFrom = -1
  let ended = false
  const rearm = (what: string) =>
    arm(setTimeout(() => {
      ended = true
      done(new SshFailure('timeout', `no prompt within ${o.timeoutMs} ms after ${what}`))
    }, o.timeoutMs))
  const atPrompt = (): boolean => {
    const text = plainText(buffer)
    if (prompt === null) {
      const m = PROMPT.exec(text)
      if (!m) return false
      prompt = m[2]!
      return true
    }
    return text.endsWith(`\n${prompt}`) || text.endsWith(`\n${prompt} `)
  }
  const cut = () => {
    const text = outputOf(buffer.slice(showFrom, startupFrom < 0 ? buffer.length : startupFrom) + (startupFrom < 0 ? '' : `\n${prompt!}`), show, prompt!)
    if (startup === null) return { text, startup: null }
    try {
      return { text, startup: outputOf(buffer.slice(startupFrom), startup, prompt!) }
    } catch (err) {
      if (err instanceof SshFailure && err.kind === 'command') return { text, startup: null }
      throw err
    }
  }
  const next = () => {
    if (step === steps.length) {
      ended = true
      channel.end('exit\n')
      try {
        done(null, cut())
      } catch (err) {
        done(err instanceof SshFailure ? err : new SshFailure('command', String(err)))
      }
      return
    }
    const command = steps[step++]!
    // the output of a command starts on the line of the prompt it is typed after
    const lineStart = buffer.lastIndexOf('\n') + 1
    if (step - 1 === o.commands.setup.length) showFrom = lineStart
    else if (step - 1 === o.commands.setup.length + 1) startupFrom = lineStart
    rearm(`"${command}"`)
    channel.write(`${command}\n`)
  }
  rearm('login')
  channel.on('data', (chunk: Buffer) => {
    if (ended) return
    buffer += chunk.toString('utf8')
    if (/--More--|<--- More --->|---\(more/i.test(buffer.slice(-200))) {
      ended = true
      return done(new SshFailure('command', 'the device pages its output although paging was turned off'))
    }
    if (atPrompt()) next()
  })
  channel.stderr.on('data', (chunk: Buffer) => void (buffer += chunk.toString('utf8')))
  channel.on('close', () => {
    if (!ended) {
      ended = true
      done(new SshFailure('command', `the session ended before "${steps[Math.max(0, step - 1)]}" finished`))
    }
  })
}
