/**
 * `ldap` of api.json: the directory (OpenLDAP, Active Directory) whose users log in with
 * POST auth/login. The gateway searches the user with a service account, binds as the user to
 * check the password, and maps the user's groups (nested ones too) to netinv scopes.
 */
import type { SchemaNode } from './schema-types.js'

export interface LdapGroupMapping {
  scopes: string[]
  isAdmin: boolean
}

export interface LdapConfig {
  enabled: boolean
  url: string
  startTls: boolean
  caFile: string
  serverName: string
  bindDn: string
  bindPasswordFile: string
  userBase: string
  userFilter: string
  usernameAttribute: string
  emailAttribute: string
  groupBase: string
  groupFilter: string
  nestedGroupDepth: number
  groups: Record<string, LdapGroupMapping>
  connectTimeoutMs: number
  timeoutMs: number
  retryAfterSeconds: number
  eulaApproved: boolean
}

const SCOPE = /^(read|settings|team|write)$/

export const LDAP_SCHEMA = {
  type: 'object',
  description: 'An LDAP directory (OpenLDAP, Active Directory) whose users log in with POST auth/login (see docs/authentication.md).',
  properties: {
    enabled: { type: 'boolean', default: false, description: 'Whether POST auth/login asks the directory for users that are not local.' },
    url: {
      type: 'string',
      default: '',
      pattern: /^(ldaps?:\/\/[^\s/?#]+\/?)?$/,
      description: '`ldap://host:389` (plain, or with `startTls`) or `ldaps://host:636` (TLS from the first byte).',
    },
    startTls: { type: 'boolean', default: false, description: 'With an `ldap://` URL: upgrade the connection with StartTLS before binding (refused when the server does not offer it).' },
    caFile: { type: 'string', default: '', description: 'PEM file of the CA certificates that verify the directory\'s certificate (LDAPS, StartTLS); empty: the system\'s CAs.' },
    serverName: { type: 'string', default: '', description: 'Name the directory\'s certificate must carry when it is not the URL\'s host.' },
    bindDn: { type: 'string', default: '', description: 'DN of the service account that searches users and groups (e.g. `cn=netinv,ou=services,dc=example,dc=org`).' },
    bindPasswordFile: {
      type: 'string',
      default: '',
      description: 'File holding the service account\'s password (first line; read at every connection, so it can be rotated in place). Never in api.json.',
    },
    userBase: { type: 'string', default: '', description: 'DN under which users are searched (subtree).' },
    userFilter: {
      type: 'string',
      default: '(&(objectClass=inetOrgPerson)(uid={username}))',
      description:
        'Filter finding one user; `{username}` is replaced by the typed username with the filter\'s special characters escaped (RFC 4515). Exclude disabled accounts here: Active Directory `(&(objectClass=user)(sAMAccountName={username})(!(userAccountControl:1.2.840.113556.1.4.803:=2)))`. A user the filter no longer finds is refused at the next refresh.',
    },
    usernameAttribute: { type: 'string', default: 'uid', description: 'Attribute holding the username netinv stores (`sAMAccountName` for Active Directory).' },
    emailAttribute: { type: 'string', default: 'mail', description: 'Attribute holding the user\'s e-mail address.' },
    groupBase: { type: 'string', default: '', description: 'DN under which groups are searched; empty: groups are not read and no scope can be mapped.' },
    groupFilter: {
      type: 'string',
      default: '(member={dn})',
      description:
        'Filter finding the groups that hold a member; `{dn}` is the member\'s DN, escaped (`(uniqueMember={dn})` for groupOfUniqueNames). Groups that hold a found group are found in turn, up to `nestedGroupDepth`. Active Directory can let the server walk the nesting: `(member:1.2.840.113556.1.4.1941:={dn})` with `nestedGroupDepth` 0.',
    },
    nestedGroupDepth: { type: 'integer', default: 5, min: 0, max: 20, description: 'How many levels of groups within groups are followed.' },
    groups: {
      type: 'record',
      default: {},
      expand: 'group',
      description:
        'Scopes given to the members of a directory group, by the group\'s DN or its `cn` (compared without case). A user gets the union of the scopes of all its groups (nested ones included); a user with none cannot log in.',
      values: {
        type: 'object',
        description: 'What the members of one group get.',
        properties: {
          scopes: { type: 'stringList', default: [], pattern: SCOPE, description: 'Scopes: read, settings, team, write.' },
          isAdmin: { type: 'boolean', default: false, description: 'Whether the members are administrators.' },
        },
      },
    },
    connectTimeoutMs: { type: 'integer', default: 3000, min: 100, max: 60000, description: 'Time to open the connection to the directory (then 503 with Retry-After).' },
    timeoutMs: { type: 'integer', default: 5000, min: 100, max: 60000, description: 'Time each directory operation (StartTLS, bind, search) may take (then 503 with Retry-After).' },
    retryAfterSeconds: { type: 'integer', default: 30, min: 1, max: 3600, description: 'The `Retry-After` of the 503 answered while the directory is down or slow.' },
    eulaApproved: {
      type: 'boolean',
      default: false,
      description: 'Whether directory users are created with the EULA approved; otherwise they approve it once with POST auth/eula and their directory password.',
    },
  },
} as const satisfies SchemaNode
