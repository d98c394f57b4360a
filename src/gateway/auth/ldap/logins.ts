/**
 * Directory users in the identity store: created at their first login, their scopes,
 * administrator status and e-mail updated from the directory at every login and refresh, refused
 * when the directory no longer finds them (removed, or disabled: excluded by `ldap.userFilter`).
 * A directory account never takes over a local or single sign-on user of the same name.
 */
import type { Logger } from 'pino'
import { ConfigError, type Config } from '../../../shared/config/index.js'
import { ApiError } from '../../../shared/errors.js'
import type { IdentityStore, User } from '../../identity/index.js'
import { Directory, DirectoryUnavailable, type DirectoryUser } from './directory.js'
import { rightsOfGroups } from './rights.js'

export type DirectoryOutcome = { user: User } | { refused: string }

export class DirectoryLogins {
  private readonly directory: Directory

  constructor(
    private readonly deps: { store: IdentityStore; config: Readonly<Config>; log: Logger },
    directory?: Directory,
  ) {
    if (deps.config.ldap.enabled && (!deps.config.ldap.url || !deps.config.ldap.userBase)) {
      throw new ConfigError('ldap', '`enabled` needs `url` and `userBase`')
    }
    this.directory = directory ?? new Directory(() => deps.config.ldap)
  }

  get enabled(): boolean {
    return this.deps.config.ldap.enabled
  }

  /** The 503 of a directory that cannot answer, with its Retry-After. */
  private unavailable(err: DirectoryUnavailable): ApiError {
    this.deps.log.warn({ reason: err.reason }, 'the LDAP directory is unavailable')
    return new ApiError('API_DIRECTORY_UNAVAILABLE', undefined, { headers: { 'retry-after': String(this.deps.config.ldap.retryAfterSeconds) } })
  }

  /** Checks the password with the directory; the stored user (created or updated), or why not. */
  async login(username: string, password: string): Promise<DirectoryOutcome> {
    let found: DirectoryUser | null
    try {
      found = await this.directory.authenticate(username, password)
    } catch (err) {
      if (err instanceof DirectoryUnavailable) throw this.unavailable(err)
      throw err
    }
    if (!found) return { refused: 'unknown user or wrong password' }
    return this.store(found)
  }

  /** At refresh: the user as the directory has it now, or why it may no longer act. */
  async recheck(user: User): Promise<DirectoryOutcome> {
    let found: DirectoryUser | null
    try {
      found = await this.directory.lookup(user.username)
    } catch (err) {
      if (err instanceof DirectoryUnavailable) throw this.unavailable(err)
      throw err
    }
    if (!found) return { refused: 'no longer in the directory (removed or disabled)' }
    if (found.dn.toLowerCase() !== (user.ldapDn ?? '').toLowerCase()) return { refused: 'the directory entry of this name changed' }
    return this.store(found)
  }

  private async store(found: DirectoryUser): Promise<DirectoryOutcome> {
    const { scopes, isAdmin } = rightsOfGroups(found.groups, this.deps.config.ldap.groups)
    const users = this.deps.store.users
    const existing = await users.byUsername(found.username)
    if (existing && existing.ldapDn === null) return { refused: `the name "${found.username}" belongs to a ${existing.isLocal ? 'local' : 'single sign-on'} user` }
    if (!existing) {
      try {
        const user = await users.create({
          username: found.username,
          password: null,
          scopes,
          isAdmin,
          email: found.email,
          isLocal: false,
          ldapDn: found.dn,
          eulaApproved: this.deps.config.ldap.eulaApproved,
        })
        return { user }
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return { refused: `the directory name cannot be a netinv user: ${err.message}` }
        throw err
      }
    }
    const same = existing.isAdmin === isAdmin && existing.email === found.email && existing.ldapDn === found.dn && existing.scopes.join() === scopes.join()
    if (same) return { user: existing }
    const user = await users.update(existing.id, { scopes, isAdmin, email: found.email, ldapDn: found.dn })
    return user ? { user } : { refused: 'the user was deleted meanwhile' }
  }
}
