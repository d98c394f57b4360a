/**
 * What each operation answers, for the OpenAPI document: the success status (and its body where
 * the shape is stable enough to promise), the error statuses the pipeline and the handlers can
 * give, and the headers that come with them.
 */
import { ERRORS } from '../../shared/errors.js'
import type { Access, Method } from '../../shared/manifest.js'
import type { JsonSchema } from './types.js'

const REF = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] })
const timestamp: JsonSchema = { type: ['integer', 'null'], description: 'Milliseconds since the epoch.' }

/** Success status(es) by `METHOD path`; otherwise 204 for DELETE and 200 for the rest. */
const SUCCESS: Readonly<Record<string, readonly number[]>> = {
  // Single sign-on: redirects (to the provider, then to the web interface), never a body.
  'GET auth/sso/:provider/start': [302],
  'GET auth/sso/:provider/callback': [302],
  // A device login answers 202 while the person has not finished at the provider.
  'POST auth/sso/:provider/device/token': [200, 202],
  'POST users': [201],
  'POST api-tokens': [201],
  'DELETE auth/token': [200],
}

export function successStatuses(method: Method, path: string): readonly number[] {
  return SUCCESS[`${method} ${path}`] ?? (method === 'DELETE' ? [204] : [200])
}

const User: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    username: { type: 'string' },
    email: nullable('string'),
    scope: REF('Scopes'),
    isAdmin: { type: 'boolean' },
    eulaApproved: { type: 'boolean' },
    timezone: { type: 'string' },
    isLocal: { type: 'boolean' },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  required: ['id', 'username', 'scope', 'isAdmin'],
}

const ApiToken: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    description: { type: 'string' },
    scope: REF('Scopes'),
    userId: { type: 'string' },
    username: { type: 'string' },
    expires: timestamp,
    lastUsed: timestamp,
    usageCount: { type: 'integer' },
    createdAt: timestamp,
    token: { type: 'string', description: 'The key itself: in the answer to its creation only.' },
  },
  required: ['id', 'scope', 'userId'],
}

const LoginResult: JsonSchema = {
  type: 'object',
  properties: {
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    eula: { type: 'boolean', description: 'Newer generations.' },
    scope: REF('Scopes'),
    id: { type: 'string' },
  },
  required: ['accessToken'],
}

const Success: JsonSchema = { type: 'object', properties: { success: { const: true } }, required: ['success'] }

/** Shared schemas of success bodies. */
export const BODY_COMPONENTS: Readonly<Record<string, JsonSchema>> = { User, ApiToken, LoginResult, Success }

const list = (item: string): JsonSchema => ({ type: 'array', items: REF(item) })

/** The success body of `METHOD path` where its shape is promised; any JSON otherwise. */
const BODIES: Readonly<Record<string, JsonSchema>> = {
  'GET version': { type: 'object', properties: { apiVersion: { type: 'string', pattern: '^v\\d+\\.\\d+$' }, releaseVersion: { type: 'string' } }, required: ['apiVersion', 'releaseVersion'] },
  'GET os/version': { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
  'GET auth/jwks': { type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } }, required: ['keys'] },
  'POST auth/login': REF('LoginResult'),
  'POST auth/token': REF('LoginResult'),
  'DELETE auth/token': REF('Success'),
  'POST auth/logout': REF('Success'),
  'POST auth/eula': REF('Success'),
  'GET users/me': { type: 'object', properties: { id: { type: 'string' }, username: { type: 'string' }, scope: REF('Scopes'), isAdmin: { type: 'boolean' }, roleIds: { type: 'array', items: { type: 'string' }, description: 'Version 1 only.' } }, required: ['id', 'username', 'scope'] },
  'GET users': list('User'),
  'POST users': REF('User'),
  'GET users/:id': REF('User'),
  'PATCH users/:id': REF('User'),
  'GET api-tokens': list('ApiToken'),
  'POST api-tokens': REF('ApiToken'),
  'GET api-tokens/:id': REF('ApiToken'),
  'PATCH api-tokens/:id': REF('ApiToken'),
}

export function successBody(method: Method, path: string): JsonSchema {
  return BODIES[`${method} ${path}`] ?? {}
}

/** Error statuses an operation can answer, with the code that gives each one. */
export function errorStatuses(method: Method, access: Access, opts: { hasBody: boolean; forwarded: boolean; table: boolean }): number[] {
  // 503 and 507: every operation may meet a database that is down, or whose disk is full
  const out = new Set<number>([400, 404, 405, 406, 410, 429, 431, 500, 503, 507])
  if (access !== 'public' || method !== 'GET') {
    out.add(401)
    out.add(403)
  }
  if (opts.hasBody || method !== 'GET') for (const s of [408, 413, 415, 417, 422]) out.add(s)
  if (method !== 'GET' || opts.table) out.add(409)
  if (opts.forwarded) {
    out.add(502)
    out.add(504)
  }
  return [...out].sort((a, b) => a - b)
}

/** Codes of the error table by status, for the descriptions. */
export function codesOf(status: number): string[] {
  return Object.entries(ERRORS)
    .filter(([, e]) => e.status === status)
    .map(([code]) => code)
}
