/**
 * users/me and users CRUD (scope team), under the rule of rights.ts: an actor creates, changes,
 * resets or deletes only users whose rights it holds itself, and grants nothing beyond its own;
 * nobody deletes themselves, and the last administrator with scope team cannot be demoted (the
 * product would lose user management).
 * users/me version 1 is the v6 shape 5.x/6.x SDKs need (roleIds, roleNames) plus `scope`;
 * version 2 drops roleIds and roleNames.
 */
import { recordOf } from '../audit/index.js'
import { ApiError, notFound } from '../../shared/errors.js'
import type { Principal } from '../../shared/principal.js'
import type { LocalHandler, RequestContext } from '../context.js'
import type { User } from '../identity/index.js'
import { canonicalScopes, parseBody, validatorOf } from './body.js'
import { reply, replyEmpty, type HandlerDeps } from './deps.js'
import { requireCovers, requireGrant } from './rights.js'
import { UserCreate, UserPatch } from './schemas.js'

export function userView(u: User): Record<string, unknown> {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    scope: u.scopes,
    isAdmin: u.isAdmin,
    eulaApproved: u.eulaApproved,
    timezone: u.timezone,
    isLocal: u.isLocal,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  }
}

function meView(u: User, p: Principal, version: number): Record<string, unknown> {
  const base = {
    id: u.id,
    username: u.username,
    email: u.email,
    isLocal: u.isLocal,
    timezone: u.timezone,
    ssoProvider: u.ssoProvider,
    domainSuffixes: [],
    ldapId: u.ldapDn,
    // The rights of the credential used, like its scope.
    scope: p.scopes,
    isAdmin: p.isAdmin,
  }
  if (version >= 2) return base
  return { ...base, roleIds: [p.isAdmin ? 'admin' : 'user'], roleNames: [p.isAdmin ? 'Admin' : 'User'] }
}

function caller(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new ApiError('API_UNAUTHORIZED')
  return ctx.principal
}

export function userHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  const limit = deps.config.server.bodyLimitBytes
  const { users } = deps.store
  const bodies = { create: validatorOf('POST users', UserCreate), patch: validatorOf('PATCH users/:id', UserPatch) }

  async function target(ctx: RequestContext): Promise<User> {
    const id = ctx.params?.id ?? ''
    const u = id ? await users.byId(id) : null
    if (!u) throw notFound(`User ${JSON.stringify(id).slice(0, 80)} not found`)
    return u
  }

  /** The product must keep one administrator who can manage users: refuse to demote the last one. */
  async function keepLastAdministrator(subject: User, scopes: readonly string[] | undefined, isAdmin: boolean | undefined): Promise<void> {
    const manages = (u: Pick<User, 'isAdmin' | 'scopes'>) => u.isAdmin && u.scopes.includes('team')
    if (!manages(subject)) return
    if (manages({ isAdmin: isAdmin ?? subject.isAdmin, scopes: scopes ? [...scopes] as User['scopes'] : subject.scopes })) return
    const others = (await users.list()).filter((u) => u.id !== subject.id && manages(u))
    if (others.length === 0) throw new ApiError('API_CONFLICT', 'At least one administrator with scope team must remain')
  }

  return {
    'GET users/me': async (ctx) => {
      const p = caller(ctx)
      const u = await deps.authenticator.user(p.id)
      if (!u) throw new ApiError('API_UNAUTHORIZED')
      reply(ctx, 200, meView(u, p, ctx.apiVersion ?? 1))
    },
    'GET users': async (ctx) => {
      reply(ctx, 200, (await users.list()).map(userView))
    },
    'POST users': async (ctx) => {
      const p = caller(ctx)
      const body = await parseBody(ctx, limit, bodies.create)
      const scopes = canonicalScopes(body.scope ?? [])
      requireGrant(p, scopes, body.isAdmin)
      const created = await users.create({
        username: body.username,
        password: body.password,
        scopes,
        isAdmin: body.isAdmin ?? false,
        eulaApproved: body.eulaApproved ?? false,
        email: body.email ?? null,
        timezone: body.timezone ?? 'UTC',
      })
      recordOf(deps.audit, ctx, { action: 'user.create', target: `${created.username} (${created.id})`, after: userView(created) })
      reply(ctx, 201, userView(created))
    },
    'GET users/:id': async (ctx) => {
      reply(ctx, 200, userView(await target(ctx)))
    },
    'PATCH users/:id': async (ctx) => {
      const p = caller(ctx)
      const subject = await target(ctx)
      const body = await parseBody(ctx, limit, bodies.patch)
      const scopes = body.scope && canonicalScopes(body.scope)
      const isAdmin = body.isAdmin
      // The subject as it is, and as it would be: both within the actor's rights.
      requireCovers(p, subject, 'change')
      requireGrant(p, scopes, isAdmin)
      await keepLastAdministrator(subject, scopes, isAdmin)
      const updated = await users.update(subject.id, {
        ...(body.password !== undefined ? { password: body.password } : {}),
        ...(scopes ? { scopes } : {}),
        ...(isAdmin !== undefined ? { isAdmin } : {}),
        ...(body.eulaApproved !== undefined ? { eulaApproved: body.eulaApproved } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
      })
      if (!updated) throw notFound(`User ${subject.id} not found`)
      recordOf(deps.audit, ctx, {
        action: 'user.update',
        target: `${updated.username} (${updated.id})`,
        before: userView(subject),
        after: { ...userView(updated), ...(body.password !== undefined ? { password: 'changed' } : {}) },
      })
      reply(ctx, 200, userView(updated))
    },
    'DELETE users/:id': async (ctx) => {
      const p = caller(ctx)
      const subject = await target(ctx)
      if (subject.id === p.id) throw new ApiError('API_CONFLICT', 'You cannot delete yourself')
      requireCovers(p, subject, 'delete')
      if (!(await users.delete(subject.id))) throw notFound(`User ${subject.id} not found`)
      recordOf(deps.audit, ctx, { action: 'user.delete', target: `${subject.username} (${subject.id})`, before: userView(subject) })
      replyEmpty(ctx)
    },
  }
}
