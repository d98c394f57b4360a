/**
 * netinv's users and roles as the tables `tables/users` and `tables/roles` (scope team, as
 * `GET users`), read by clients that manage users through table requests. netinv has no roles of
 * its own: a user's rights are scopes plus administrator status (docs/authentication.md), so each
 * scope is a system role named after it, and `admin` is the role of administrators. A user's
 * `roleIds` and `roleNames` are its scopes, with `admin` when it is an administrator.
 */
import { SCOPES } from '../shared/manifest.js'
import type { GatewayTable } from './audit/query.js'

const text = (key: string) => (r: Record<string, unknown>) => (r[key] ?? null) as unknown
const int = (key: string) => (r: Record<string, unknown>) => (r[key] === null || r[key] === undefined ? null : Number(r[key]))
const list = (key: string) => (r: Record<string, unknown>) => (r[key] ?? null) as unknown

export const USERS_TABLE: GatewayTable = {
  id: { sql: 'id', type: 'string', out: text('id'), description: 'The user\'s id.' },
  username: { sql: 'username', type: 'string', out: text('username'), description: 'Its username (login name).' },
  email: { sql: 'email', type: 'string', out: text('email'), description: 'Its e-mail address, or null.' },
  isAdmin: { sql: 'is_admin', type: 'boolean', out: text('is_admin'), description: 'Whether it is an administrator (every right; may grant any scope).' },
  isLocal: { sql: 'is_local', type: 'boolean', out: text('is_local'), description: 'Whether it logs in with a netinv password (false: single sign-on or directory users).' },
  eulaApproved: { sql: 'eula_approved', type: 'boolean', out: text('eula_approved'), description: 'Whether it has approved the EULA.' },
  timezone: { sql: 'timezone', type: 'string', out: text('timezone'), description: 'Its time zone, or null.' },
  ssoProvider: { sql: 'sso_provider', type: 'string', out: text('sso_provider'), description: 'The single sign-on provider it logs in with, or null.' },
  ldapId: { sql: 'ldap_dn', type: 'string', out: text('ldap_dn'), description: 'Its directory entry (DN), for directory users, or null.' },
  scope: { sql: 'scopes', type: 'strings', out: list('scopes'), description: 'Its scopes (read, write, settings, team).' },
  roleIds: { sql: 'role_names', type: 'strings', out: list('role_names'), description: 'Its roles by id: its scopes, with admin for an administrator.' },
  roleNames: { sql: 'role_names', type: 'strings', out: list('role_names'), description: 'Its roles by name (the same as roleIds: netinv\'s roles are named after what they grant).' },
  /** Domains of a directory user's sign-in names; netinv keeps none: always null. */
  domainSuffixes: { sql: 'domain_suffixes', type: 'strings', out: list('domain_suffixes'), description: 'Domains of a directory user\'s sign-in names: netinv keeps none, always null.' },
  createdAt: { sql: 'created_at', type: 'integer', out: int('created_at'), description: 'When it was created (milliseconds since the epoch).' },
  updatedAt: { sql: 'updated_at', type: 'integer', out: int('updated_at'), description: 'When it last changed (milliseconds since the epoch).' },
}

/** The users relation: one row per user, its roles derived from its scopes and administrator status. */
export const USERS_FROM = [
  '(SELECT id, username, email, is_admin, is_local, eula_approved, timezone, sso_provider, ldap_dn, scopes,',
  "CASE WHEN is_admin THEN array_append(scopes, 'admin') ELSE scopes END AS role_names, NULL::text[] AS domain_suffixes, created_at, updated_at",
  'FROM identity.users) u',
].join(' ')

export const ROLES_TABLE: GatewayTable = {
  id: { sql: 'id', type: 'string', out: text('id'), description: 'The role\'s id: a scope, or admin.' },
  name: { sql: 'name', type: 'string', out: text('name'), description: 'The role\'s name: a scope, or admin.' },
  description: { sql: 'description', type: 'string', out: text('description'), description: 'What the role grants.' },
  type: { sql: 'type', type: 'string', out: text('type'), description: 'Always system: netinv has no custom roles.' },
  isAdmin: { sql: 'is_admin', type: 'boolean', out: text('is_admin'), description: 'Whether it is the administrator role.' },
  isSystem: { sql: 'is_system', type: 'boolean', out: text('is_system'), description: 'Always true.' },
}

interface Role {
  id: string
  name: string
  description: string
  type: 'system'
  is_admin: boolean
  is_system: true
}

/** The roles: one per scope, and `admin`. */
export const ROLES: readonly Role[] = [
  { id: 'admin', name: 'admin', description: 'Administrator: every right, and may grant any scope and administrator status.', type: 'system', is_admin: true, is_system: true },
  ...SCOPES.map((s): Role => ({ id: s, name: s, description: `The scope ${s}: the endpoints and methods the API versions document (docs/api-versions.md) lists as needing ${s}.`, type: 'system', is_admin: false, is_system: true })),
]

/** The roles relation: the list above as rows, passed as the parameter $1. */
export const ROLES_FROM = '(SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, name text, description text, type text, is_admin boolean, is_system boolean)) r'
