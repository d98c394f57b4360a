/**
 * The request bodies of the gateway's own endpoints, as JSON Schema (TypeBox): the handlers
 * check bodies with these (body.ts `parseBody`) and the OpenAPI document publishes the same
 * objects. Property order is the order problems are reported in.
 */
import { Type, type TSchema } from '@sinclair/typebox'
import type { RequestBodies } from '../../shared/schema/index.js'
import { SCOPES } from '../../shared/manifest.js'
import { AUDIT_TABLE, type GatewayTable } from '../audit/query.js'
import { ROLES_TABLE, USERS_TABLE } from '../identity-tables.js'

const text = (max: number, description: string, min = 1) => Type.String({ minLength: min, maxLength: max, description })

export const Scope = Type.Union(SCOPES.map((s) => Type.Literal(s)), { description: 'An access scope.' })
export const ScopeList = Type.Array(Scope, { description: 'Access scopes.' })
/** The latest time a JavaScript date can hold (year 275760), in ms since the epoch. */
const LATEST_TIME_MS = 8.64e15
const Timestamp = Type.Union([Type.Integer({ minimum: 0, maximum: LATEST_TIME_MS }), Type.Null()], {
  description: 'Milliseconds since the epoch (at most 8640000000000000, the latest date), or null for none.',
  'x-message': 'must be a timestamp in milliseconds or null',
})

export const Login = Type.Object({
  username: text(256, 'User name.'),
  password: text(1024, 'Password.'),
})

export const Refresh = Type.Object({
  refreshToken: Type.Optional(text(4096, 'The refresh token; may instead come in the refreshToken cookie.')),
})

export const Revoke = Type.Object({
  refreshToken: text(4096, 'The refresh token to revoke, with its whole family.'),
})

export const Eula = Type.Object(
  {
    username: Type.Optional(text(256, 'User name (with password).')),
    password: Type.Optional(text(1024, 'Password (with username).')),
    ticket: Type.Optional(text(256, 'Instead of username and password: the ticket a single sign-on login answered (its callback sends the browser to `/#ssoEula=<ticket>`); used once.')),
    accept: Type.Literal(true, { description: 'Must be true.', 'x-message': 'must be true' }),
  },
  { description: 'Either username and password (a local or directory user), or the ticket of a single sign-on login.' },
)

export const DevicePoll = Type.Object({
  deviceRequest: text(256, 'The deviceRequest that POST auth/sso/{provider}/device answered.'),
})

const Email = Type.Union([text(320, 'E-mail address.'), Type.Null()])
const Password = Type.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters; checked against common and breached passwords.' })

export const UserCreate = Type.Object({
  scope: Type.Optional(ScopeList),
  isAdmin: Type.Optional(Type.Boolean()),
  username: Type.String({ minLength: 1, maxLength: 64, description: 'User name: 1–64 characters, letters of one script.' }),
  password: Password,
  eulaApproved: Type.Optional(Type.Boolean()),
  email: Type.Optional(Email),
  timezone: Type.Optional(text(64, 'IANA time zone, UTC by default.')),
})

export const UserPatch = Type.Object(
  {
    password: Type.Optional(Password),
    scope: Type.Optional(ScopeList),
    isAdmin: Type.Optional(Type.Boolean()),
    eulaApproved: Type.Optional(Type.Boolean()),
    email: Type.Optional(Email),
    timezone: Type.Optional(text(64, 'IANA time zone.')),
  },
  { additionalProperties: false },
)

export const ApiTokenCreate = Type.Object({
  scope: Type.Optional(ScopeList),
  expires: Type.Optional(Timestamp),
  token: Type.Optional(text(256, 'A key string of your choice (hard to guess), instead of a generated one.')),
  description: Type.Optional(text(1024, 'What the key is for.')),
})

export const ApiTokenPatch = Type.Object(
  {
    scope: Type.Optional(ScopeList),
    description: Type.Optional(text(1024, 'What the key is for.')),
  },
  { additionalProperties: false },
)

const AuditColumn = Type.Union(Object.keys(AUDIT_TABLE).map((c) => Type.Literal(c)), { description: 'A column of the audit trail.' })

/**
 * `POST tables/audit`: a table request over the audit trail. What it publishes; the handler reads
 * it with its own parser (audit/query.ts `parseAuditQuery`), whose 422s name each problem.
 */
export const AuditTableRequest = Type.Object(
  {
    columns: Type.Optional(Type.Array(AuditColumn, { minItems: 1, description: 'The columns to answer with (default: all).' })),
    filters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Column → [operator, value], or `and` / `or` lists of such objects.' })),
    sort: Type.Optional(Type.Object({ column: AuditColumn, order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) })),
    pagination: Type.Optional(Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 0 })), start: Type.Optional(Type.Integer({ minimum: 0 })) })),
    format: Type.Optional(Type.Object({ dataType: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])), exportToFile: Type.Optional(Type.Boolean()) })),
    snapshot: Type.Optional(Type.String({ description: 'Accepted and ignored: the audit trail belongs to no snapshot.' })),
  },
  { description: 'A table request over the audit trail (scope team).' },
)

/** `POST tables/users` and `tables/roles`: the same table request over netinv's users or roles (identity-tables.ts). */
function identityTableRequest(what: string, table: GatewayTable) {
  const column = Type.Union(Object.keys(table).map((c) => Type.Literal(c)), { description: `A column of the ${what} table.` })
  return Type.Object(
    {
      columns: Type.Optional(Type.Array(column, { minItems: 1, description: 'The columns to answer with.' })),
      filters: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Column → [operator, value], or `and` / `or` lists of such objects.' })),
      sort: Type.Optional(Type.Object({ column, order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) })),
      pagination: Type.Optional(Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 0 })), start: Type.Optional(Type.Integer({ minimum: 0 })) })),
      format: Type.Optional(Type.Object({ dataType: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])), exportToFile: Type.Optional(Type.Boolean()) })),
      snapshot: Type.Optional(Type.String({ description: `Accepted and ignored: the ${what} belong to no snapshot.` })),
    },
    { description: `A table request over the ${what} (scope team).` },
  )
}

const json = (schema: TSchema, optional = false) => ({ schema, ...(optional ? { optional } : {}) })

/** By `METHOD path` of the manifest. */
export const GATEWAY_BODIES: RequestBodies = {
  'POST auth/login': json(Login),
  'POST auth/token': json(Refresh, true),
  'DELETE auth/token': json(Revoke),
  'POST auth/eula': json(Eula),
  'POST auth/sso/:provider/device/token': json(DevicePoll),
  'POST users': json(UserCreate),
  'PATCH users/:id': json(UserPatch),
  'POST api-tokens': json(ApiTokenCreate, true),
  'PATCH api-tokens/:id': json(ApiTokenPatch),
  'POST tables/audit': json(AuditTableRequest, true),
  'POST tables/users': json(identityTableRequest('users', USERS_TABLE), true),
  'POST tables/roles': json(identityTableRequest('roles', ROLES_TABLE), true),
}
