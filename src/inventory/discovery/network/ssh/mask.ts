/**
 * A configuration as netinv keeps it: secrets masked before anything is stored (passwords,
 * enable secrets, SNMP communities and v3 keys, routing protocol and AAA server keys, pre-shared
 * keys, private key blocks), the lines that change without a change of configuration left out
 * (timestamps, byte counts, clock drift), and its fingerprint. A masked value is replaced by
 * MASK and the words around it are kept, so a change of the line around a secret still shows.
 */
import { createHash } from 'node:crypto'

export const MASK = '********'

/** Words that may stand between a secret's keyword and the secret: an encryption type, a key id, a hash name. */
const MODIFIER = String.raw`(?:(?:\d{1,3}|md5|sha\d*|sha-?\d+|aes(?:-?\d+)?|3?des|ascii(?:-text)?|hexadecimal(?:-text)?|hex|encrypted|cleartext|unencrypted|plain-text|local|remote)\s+)*`

/** The secret itself: a quoted string or one word. */
const VALUE = String.raw`("[^"]*"|\S+)`

/** Keywords a secret follows; not when part of a longer word ("password-encryption", "send-community"). */
const KEYWORDS = [
  'password',
  'secret',
  'key',
  'key-string',
  'authentication-key',
  'message-digest-key',
  'encrypted-password',
  'pre-shared-key',
  'passphrase',
  'psk',
  'wpa-psk',
  'auth',
  'priv',
  'community',
]

const RULES: readonly RegExp[] = [
  // snmp-server host 10.0.0.1 [informs|traps] [version 1|2c|3 auth|noauth|priv] COMMUNITY
  new RegExp(String.raw`^(\s*snmp-server\s+host\s+\S+\s+(?:(?:informs|traps)\s+)?(?:version\s+(?:1|2c|3\s+\S+)\s+)?)${VALUE}`, 'i'),
  // a keyword, any modifiers, the secret (a route-map's "set community" is not a secret)
  new RegExp(String.raw`((?<![-\w])(?<!\bset )(?:${KEYWORDS.join('|')})\s+${MODIFIER})${VALUE}`, 'gi'),
]

/** Lines that change while the configuration does not (left out of the text and its fingerprint). */
const VOLATILE: readonly RegExp[] = [
  /^\s*!\s*(?:Last configuration change|NVRAM config last updated|No configuration change since last restart)/i,
  /^\s*!\s*Time:/i,
  /^\s*!\s*Running configuration last done at/i,
  /^\s*Building configuration\.\.\.\s*$/i,
  /^\s*Current configuration\s*:\s*\d+ bytes\s*$/i,
  /^\s*##\s*Last (?:commit|changed):/i,
  /^\s*ntp clock-period\s+\d+\s*$/i,
]

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/

/** One line with its secrets masked. */
export function maskLine(line: string): string {
  let out = line
  for (const rule of RULES) out = out.replace(rule, (_m, keep: string) => `${keep}${MASK}`)
  return out
}

/** The configuration as stored: secrets masked, volatile lines left out, line ends normalised. */
export function storedConfiguration(text: string): string {
  const out: string[] = []
  let inKey = false
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd()
    if (inKey) {
      if (PRIVATE_KEY_END.test(line)) {
        inKey = false
        out.push(line)
      }
      continue
    }
    if (PRIVATE_KEY_BEGIN.test(line)) {
      inKey = !PRIVATE_KEY_END.test(line)
      out.push(line.replace(/(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----).*/, `$1 ${MASK}`))
      continue
    }
    if (VOLATILE.some((v) => v.test(line))) continue
    out.push(maskLine(line))
  }
  while (out.length > 0 && out[0] === '') out.shift()
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return `${out.join('\n')}\n`
}

/**
 * Lines that only one of the running and the startup configuration shows, whatever they hold:
 * IOS's "Using 4120 out of 524288 bytes" before a startup configuration, the command NX-OS and
 * EOS echo as the first line, and when each was last written.
 */
const HEADERS: readonly RegExp[] = [
  /^\s*Using \d+ out of \d+ bytes/i,
  /^\s*!\s*Command: show (?:running|startup)-config/i,
  /^\s*!\s*(?:Startup config saved at|Startup-config last modified at|Running configuration last done at)/i,
]

export type SavedStatus = 'saved' | 'unsaved'

/**
 * Whether the running configuration was saved: `saved` when the startup configuration holds the
 * same lines (both masked, volatile lines and each one's own headers left out), `unsaved` when
 * they differ, also when the device has no startup configuration (IOS "startup-config is not present").
 */
export function savedStatus(running: string, startup: string): SavedStatus {
  const lines = (text: string) => storedConfiguration(text).split('\n').filter((l) => !HEADERS.some((h) => h.test(l)))
  const a = lines(running)
  const b = lines(startup)
  const trim = (x: string[]) => {
    while (x.length > 0 && x[0]!.trim() === '') x.shift()
    while (x.length > 0 && x[x.length - 1]!.trim() === '') x.pop()
    return x.join('\n')
  }
  return trim(a) === trim(b) ? 'saved' : 'unsaved'
}

/** Fingerprint of a stored configuration (SHA-1, hex), the `hash` of management/configuration. */
export function configurationHash(stored: string): string {
  return createHash('sha1').update(stored, 'utf8').digest('hex')
}
