/**
 * The LDAP directory as the gateway asks it: find a user with the service account, check the
 * password by binding as that user, read the user's groups (nested ones too).
 *
 * - An empty password is never sent: to an LDAP server a simple bind with a DN and no password is
 *   an unauthenticated bind that "succeeds" (RFC 4513 5.1.2).
 * - Typed values are escaped before they enter a filter (filters.ts).
 * - Each check opens its own connection (StartTLS first when configured) and closes it; the whole
 *   check is bounded by `connectTimeoutMs` + 4 × `timeoutMs`. A directory that refuses, resets,
 *   hangs or fails TLS is `DirectoryUnavailable` (503 with Retry-After), never a wrong password.
 */
import { readFile } from 'node:fs/promises'
import type { ConnectionOptions } from 'node:tls'
import { Client, InvalidCredentialsError, type Entry } from 'ldapts'
import type { LdapConfig } from '../../../shared/config/index.js'
import { fillFilter } from './filters.js'

export interface DirectoryUser {
  dn: string
  username: string
  email: string | null
  /** DNs of the groups holding the user, directly or through other groups. */
  groups: string[]
}

/** The directory could not answer (down, slow, TLS refused, service account refused). */
export class DirectoryUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the directory is unavailable: ${reason}`)
    this.name = 'DirectoryUnavailable'
  }
}

/** Longest username sent to the directory. */
const MAX_USERNAME = 256

function first(entry: Entry, attribute: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase())
  const value = key === undefined ? undefined : entry[key]
  const v = Array.isArray(value) ? value[0] : value
  if (v === undefined) return null
  return Buffer.isBuffer(v) ? v.toString('utf8') : String(v)
}

export class Directory {
  constructor(private readonly config: () => Readonly<LdapConfig>) {}

  /** The user when the password is right, null when the user or the password is wrong. */
  async authenticate(username: string, password: string): Promise<DirectoryUser | null> {
    if (password === '' || username === '' || username.length > MAX_USERNAME) return null
    return this.session(async (client, cfg) => {
      const found = await this.findUser(client, cfg, username)
      if (!found) return null
      try {
        await client.bind(found.dn, password)
      } catch (err) {
        if (err instanceof InvalidCredentialsError) return null
        throw err
      }
      // Groups are read as the service account: a user may not be allowed to read them.
      await this.bindService(client, cfg)
      return { ...found, groups: await this.groups(client, cfg, found.dn) }
    })
  }

  /** The user as the directory has it now (refresh), or null when the filter no longer finds it. */
  async lookup(username: string): Promise<DirectoryUser | null> {
    if (username === '' || username.length > MAX_USERNAME) return null
    return this.session(async (client, cfg) => {
      const found = await this.findUser(client, cfg, username)
      return found ? { ...found, groups: await this.groups(client, cfg, found.dn) } : null
    })
  }

  private async session<T>(work: (client: Client, cfg: Readonly<LdapConfig>) => Promise<T>): Promise<T> {
    const cfg = this.config()
    const tls = await this.tlsOptions(cfg)
    // ldapts speaks TLS from the first byte whenever it is given TLS options: only for ldaps://.
    const ldaps = cfg.url.toLowerCase().startsWith('ldaps:')
    const client = new Client({ url: cfg.url, timeout: cfg.timeoutMs, connectTimeout: cfg.connectTimeoutMs, strictDN: false, ...(ldaps ? { tlsOptions: tls } : {}) })
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DirectoryUnavailable('no answer in time')), cfg.connectTimeoutMs + 4 * cfg.timeoutMs)
    })
    try {
      const run = (async () => {
        if (cfg.startTls && !ldaps) await client.startTLS(tls)
        await this.bindService(client, cfg)
        return work(client, cfg)
      })()
      run.catch(() => {})
      return await Promise.race([run, deadline])
    } catch (err) {
      if (err instanceof DirectoryUnavailable) throw err
      throw new DirectoryUnavailable(err instanceof Error ? err.message : String(err))
    } finally {
      clearTimeout(timer)
      void client.unbind().catch(() => {})
    }
  }

  private async tlsOptions(cfg: Readonly<LdapConfig>): Promise<ConnectionOptions> {
    const options: ConnectionOptions = { minVersion: 'TLSv1.2' }
    if (cfg.caFile) options.ca = await readFile(cfg.caFile)
    if (cfg.serverName) options.servername = cfg.serverName
    return options
  }

  private async bindService(client: Client, cfg: Readonly<LdapConfig>): Promise<void> {
    if (!cfg.bindDn) return
    const secret = cfg.bindPasswordFile ? (await readFile(cfg.bindPasswordFile, 'utf8')).split(/\r?\n/)[0] ?? '' : ''
    if (secret === '') throw new DirectoryUnavailable('the service account has no password (ldap.bindPasswordFile)')
    try {
      await client.bind(cfg.bindDn, secret)
    } catch (err) {
      if (err instanceof InvalidCredentialsError) throw new DirectoryUnavailable('the directory refused the service account (ldap.bindDn, ldap.bindPasswordFile)')
      throw err
    }
  }

  private async findUser(client: Client, cfg: Readonly<LdapConfig>, username: string): Promise<Omit<DirectoryUser, 'groups'> | null> {
    const { searchEntries } = await client.search(cfg.userBase, {
      scope: 'sub',
      filter: fillFilter(cfg.userFilter, { username }),
      attributes: [cfg.usernameAttribute, cfg.emailAttribute],
      sizeLimit: 2,
    })
    // None, or more than one (an ambiguous filter): nobody.
    if (searchEntries.length !== 1) return null
    const entry = searchEntries[0]!
    const name = first(entry, cfg.usernameAttribute)
    if (name === null) return null
    return { dn: entry.dn, username: name, email: first(entry, cfg.emailAttribute) }
  }

  /** Groups holding `dn`, then the groups holding those, up to `nestedGroupDepth` levels. */
  private async groups(client: Client, cfg: Readonly<LdapConfig>, dn: string): Promise<string[]> {
    if (!cfg.groupBase) return []
    const seen = new Map<string, string>()
    let members = [dn]
    for (let level = 0; level <= cfg.nestedGroupDepth && members.length > 0; level++) {
      const parts = members.map((m) => fillFilter(cfg.groupFilter, { dn: m }))
      const filter = parts.length === 1 ? parts[0]! : `(|${parts.join('')})`
      const { searchEntries } = await client.search(cfg.groupBase, { scope: 'sub', filter, attributes: ['1.1'] })
      members = []
      for (const e of searchEntries) {
        const key = e.dn.toLowerCase()
        if (seen.has(key)) continue
        seen.set(key, e.dn)
        members.push(e.dn)
      }
    }
    return [...seen.values()]
  }
}
