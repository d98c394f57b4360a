/** Users of the identity store: unique username, scrypt password hash, scopes, flags. */
import type { Db, Queryable } from '../../shared/db/index.js'
import { SCOPES, type Scope } from '../../shared/manifest.js'
import { ApiError, invalidInput } from '../../shared/errors.js'
import { normalizeUsername, usernameProblem, usernameSkeleton } from './names.js'
import { hashPassword, newId } from './secrets.js'
import type { Clock, IdentityEvent, User } from './types.js'

interface UserRow {
  id: string
  username: string
  password_hash: string | null
  scopes: string[]
  is_admin: boolean
  eula_approved: boolean
  email: string | null
  timezone: string
  is_local: boolean
  ldap_dn: string | null
  sso_provider: string | null
  sso_subject: string | null
  created_at: number
  updated_at: number
}

export interface NewUser {
  username: string
  /** Null for a user of a directory or a single sign-on provider: it has no netinv password. */
  password: string | null
  scopes: readonly Scope[]
  isAdmin?: boolean
  eulaApproved?: boolean
  email?: string | null
  timezone?: string
  isLocal?: boolean
  ldapDn?: string | null
  ssoProvider?: string | null
  /** The provider's `sub` of a single sign-on user. */
  ssoSubject?: string | null
}

export interface UserPatch {
  password?: string
  scopes?: readonly Scope[]
  isAdmin?: boolean
  eulaApproved?: boolean
  email?: string | null
  timezone?: string
  ldapDn?: string | null
  ssoSubject?: string | null
}

const COLUMNS = 'id, username, password_hash, scopes, is_admin, eula_approved, email, timezone, is_local, ldap_dn, sso_provider, sso_subject, created_at, updated_at'

export function onlyScopes(list: readonly string[]): Scope[] {
  return SCOPES.filter((s) => list.includes(s))
}

function toUser(r: UserRow): User {
  return {
    id: r.id,
    username: r.username,
    scopes: onlyScopes(r.scopes),
    isAdmin: r.is_admin,
    eulaApproved: r.eula_approved,
    email: r.email,
    timezone: r.timezone,
    isLocal: r.is_local,
    ldapDn: r.ldap_dn,
    ssoProvider: r.sso_provider,
    ssoSubject: r.sso_subject,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505'
}

export class UserStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly notify: (e: IdentityEvent) => void,
  ) {}

  async create(u: NewUser, tx: Queryable = this.db): Promise<User> {
    const now = this.clock()
    const username = normalizeUsername(u.username)
    const problem = usernameProblem(username)
    if (problem !== null) throw invalidInput(`"username" ${problem}`)
    // A look-alike of an existing name (`аdmin` beside `admin`) is as taken as the name itself.
    const skeleton = usernameSkeleton(username)
    const { rows: names } = await tx.query<{ username: string }>('SELECT username FROM identity.users')
    const twin = names.find((r) => usernameSkeleton(r.username) === skeleton)
    if (twin) throw new ApiError('API_CONFLICT', twin.username.toLowerCase() === username.toLowerCase() ? `User "${username}" already exists` : `"${username}" looks like the existing user "${twin.username}"`)
    const hash = u.password === null ? null : await hashPassword(u.password)
    try {
      const { rows } = await tx.query<UserRow>(
        `INSERT INTO identity.users (id, username, password_hash, scopes, is_admin, eula_approved, email, timezone, is_local, ldap_dn, sso_provider, sso_subject, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING ${COLUMNS}`,
        [newId(), username, hash, onlyScopes(u.scopes), u.isAdmin ?? false, u.eulaApproved ?? false, u.email ?? null, u.timezone ?? 'UTC', u.isLocal ?? hash !== null, u.ldapDn ?? null, u.ssoProvider ?? null, u.ssoSubject ?? null, now],
      )
      return toUser(rows[0]!)
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError('API_CONFLICT', `User "${username}" already exists`)
      throw err
    }
  }

  /** The user and its password hash, for credential checks only. */
  async credentials(username: string): Promise<{ user: User; passwordHash: string | null } | null> {
    const { rows } = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM identity.users WHERE lower(username) = lower($1)`, [normalizeUsername(username)])
    const r = rows[0]
    return r ? { user: toUser(r), passwordHash: r.password_hash } : null
  }

  async byId(id: string): Promise<User | null> {
    const { rows } = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM identity.users WHERE id = $1`, [id])
    return rows[0] ? toUser(rows[0]) : null
  }

  async byUsername(username: string): Promise<User | null> {
    return (await this.credentials(username))?.user ?? null
  }

  async list(): Promise<User[]> {
    const { rows } = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM identity.users ORDER BY lower(username)`)
    return rows.map(toUser)
  }

  async count(tx: Queryable = this.db): Promise<number> {
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int8 AS n FROM identity.users')
    return rows[0]?.n ?? 0
  }

  async update(id: string, patch: UserPatch): Promise<User | null> {
    const sets: string[] = []
    const params: unknown[] = [id]
    const add = (column: string, value: unknown) => {
      params.push(value)
      sets.push(`${column} = $${params.length}`)
    }
    if (patch.password !== undefined) add('password_hash', await hashPassword(patch.password))
    if (patch.scopes !== undefined) add('scopes', onlyScopes(patch.scopes))
    if (patch.isAdmin !== undefined) add('is_admin', patch.isAdmin)
    if (patch.eulaApproved !== undefined) add('eula_approved', patch.eulaApproved)
    if (patch.email !== undefined) add('email', patch.email)
    if (patch.timezone !== undefined) add('timezone', patch.timezone)
    if (patch.ldapDn !== undefined) add('ldap_dn', patch.ldapDn)
    if (patch.ssoSubject !== undefined) add('sso_subject', patch.ssoSubject)
    add('updated_at', this.clock())
    const { rows } = await this.db.query<UserRow>(`UPDATE identity.users SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`, params)
    if (!rows[0]) return null
    if (patch.password !== undefined) {
      // A new password ends every session opened with the old one.
      await this.db.query('UPDATE identity.refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [id, this.clock()])
    }
    this.notify({ type: 'user', id })
    return toUser(rows[0])
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM identity.users WHERE id = $1', [id])
    if (rowCount > 0) this.notify({ type: 'user', id })
    return rowCount > 0
  }
}
