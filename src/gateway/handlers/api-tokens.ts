/**
 * api-tokens: list (own; everyone's with scope team), create (with a user session only; the key
 * is in the answer once and never again; a caller may choose the key string, at creation only, if
 * it is hard to guess), read, change scopes or description, delete (the owner, or scope team over
 * a user whose rights the caller holds: see rights.ts). A key never holds scopes beyond its
 * owner's, nor beyond the caller's when the caller grants them; without `scope` it gets the least,
 * `read` (the spec: "the most restrictive scopes possible SHOULD be granted").
 */
import { recordOf } from '../audit/index.js'
import { ApiError, invalidInput, notFound } from '../../shared/errors.js'
import type { Principal } from '../../shared/principal.js'
import type { LocalHandler, RequestContext } from '../context.js'
import { customKeyProblem, type ApiKey } from '../identity/index.js'
import { canonicalScopes, parseBody, validatorOf } from './body.js'
import { reply, replyEmpty, type HandlerDeps } from './deps.js'
import { isSubset, keyWithin, requireCovers, requireKeyWithin, requireSession, type Rights } from './rights.js'
import { ApiTokenCreate, ApiTokenPatch } from './schemas.js'

export function apiKeyView(k: ApiKey): Record<string, unknown> {
  return {
    id: k.id,
    description: k.description,
    scope: k.scopes,
    userId: k.userId,
    username: k.username,
    expires: k.expiresAt,
    lastUsed: k.lastUsedAt,
    usageCount: k.usageCount,
    createdAt: k.createdAt,
  }
}

function caller(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new ApiError('API_UNAUTHORIZED')
  return ctx.principal
}

export function apiTokenHandlers(deps: HandlerDeps): Record<string, LocalHandler> {
  const limit = deps.config.server.bodyLimitBytes
  const { apiKeys } = deps.store
  const bodies = { create: validatorOf('POST api-tokens', ApiTokenCreate), patch: validatorOf('PATCH api-tokens/:id', ApiTokenPatch) }

  /** The key the request names, when the caller may act on it (see rights.ts: within its scopes). */
  async function target(ctx: RequestContext, p: Principal): Promise<ApiKey> {
    const id = ctx.params?.id ?? ''
    const k = id ? await apiKeys.byId(id) : null
    if (!k) throw notFound(`API key ${JSON.stringify(id).slice(0, 80)} not found`)
    if (k.userId !== p.id && !p.scopes.includes('team')) throw new ApiError('API_INSUFFICIENT_RIGHTS')
    const owner = await deps.store.users.byId(k.userId)
    if (owner && k.userId !== p.id) requireCovers(p, owner, 'manage the API keys of')
    requireKeyWithin(p, k, owner)
    return k
  }

  return {
    'GET api-tokens': async (ctx) => {
      const p = caller(ctx)
      await deps.usage.flush()
      const list = await apiKeys.list(p.scopes.includes('team') ? undefined : p.id)
      const owners = new Map<string, Rights | null>()
      const ownerOf = async (userId: string): Promise<Rights | null> => {
        if (!owners.has(userId)) owners.set(userId, await deps.store.users.byId(userId))
        return owners.get(userId) ?? null
      }
      const visible: ApiKey[] = []
      for (const k of list) if (keyWithin(p, k, await ownerOf(k.userId))) visible.push(k)
      reply(ctx, 200, visible.map(apiKeyView))
    },
    'POST api-tokens': async (ctx) => {
      const p = caller(ctx)
      requireSession(p)
      const body = await parseBody(ctx, limit, bodies.create)
      const scopes = body.scope ? canonicalScopes(body.scope) : p.scopes.filter((s) => s === 'read')
      if (!isSubset(scopes, p.scopes)) throw new ApiError('API_INSUFFICIENT_RIGHTS', 'An API key cannot hold scopes beyond your own')
      const expiresAt = body.expires ?? null
      if (expiresAt !== null && expiresAt <= deps.clock()) throw invalidInput('"expires" must be in the future')
      const key = body.token
      const weak = key === undefined ? null : customKeyProblem(key)
      if (weak !== null) throw invalidInput(`"token" ${weak}`)
      const created = await apiKeys.create({
        userId: p.id,
        scopes,
        description: body.description ?? '',
        expiresAt,
        ...(key !== undefined ? { key } : {}),
      })
      recordOf(deps.audit, ctx, { action: 'apiKey.create', target: created.apiKey.id, after: apiKeyView(created.apiKey) })
      reply(ctx, 201, { ...apiKeyView(created.apiKey), token: created.key })
    },
    'GET api-tokens/:id': async (ctx) => {
      reply(ctx, 200, apiKeyView(await target(ctx, caller(ctx))))
    },
    'PATCH api-tokens/:id': async (ctx) => {
      const p = caller(ctx)
      const k = await target(ctx, p)
      const body = await parseBody(ctx, limit, bodies.patch)
      const scopes = body.scope && canonicalScopes(body.scope)
      if (scopes) {
        const owner = await deps.store.users.byId(k.userId)
        if (!owner || !isSubset(scopes, owner.scopes)) throw new ApiError('API_INSUFFICIENT_RIGHTS', "An API key cannot hold scopes beyond its owner's")
        if (!isSubset(scopes, p.scopes)) throw new ApiError('API_INSUFFICIENT_RIGHTS', 'Scopes beyond your own cannot be granted')
      }
      const description = body.description
      const updated = await apiKeys.update(k.id, { ...(scopes ? { scopes } : {}), ...(description !== undefined ? { description } : {}) })
      if (!updated) throw notFound(`API key ${k.id} not found`)
      recordOf(deps.audit, ctx, { action: 'apiKey.update', target: k.id, before: apiKeyView(k), after: apiKeyView(updated) })
      reply(ctx, 200, apiKeyView(updated))
    },
    'DELETE api-tokens/:id': async (ctx) => {
      const k = await target(ctx, caller(ctx))
      if (!(await apiKeys.delete(k.id))) throw notFound(`API key ${k.id} not found`)
      recordOf(deps.audit, ctx, { action: 'apiKey.delete', target: k.id, before: apiKeyView(k) })
      replyEmpty(ctx)
    },
  }
}
