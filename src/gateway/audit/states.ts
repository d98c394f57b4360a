/**
 * Before and after of the forwarded changes whose state is cheap to read: the settings (global,
 * seed, SNMP credentials, a snapshot's) and the intent rules. Before the change is forwarded, the
 * gateway reads the state with a GET of the same upstream under the caller's own identity (so it
 * sees no more than the caller may); after a successful answer, it reads it again, off the
 * request path (auth/index.ts `observe`). The audit trail records both, secrets masked. Only
 * upstreams addressed by header versioning with netinv's internal identity (netinv's inventory)
 * are read; a read that fails or takes longer than READ_TIMEOUT_MS leaves the side `null` and the
 * change goes on.
 */
import type { OutgoingHttpHeaders } from 'node:http'
import type { RequestContext } from '../context.js'
import { upstreamHeaders } from '../upstreams/headers.js'
import type { Upstream } from '../upstreams/settings.js'

/** Endpoint (route path) → the endpoint path whose GET answers its state. */
const STATE_OF: Readonly<Record<string, (endpointPath: string) => string>> = {
  settings: () => 'settings',
  'settings/seed': () => 'settings/seed',
  'settings/snmp': () => 'settings/snmp',
  'settings/snmp/:id': () => 'settings/snmp',
  'snapshots/:id/settings': (p) => p,
  'reports/:id': (p) => p,
}

const READ_TIMEOUT_MS = 2000
const BODY_HEADERS = ['content-length', 'content-type', 'transfer-encoding', 'expect', 'content-encoding']

export interface AuditState {
  before: unknown
  /** The state read again (after a successful change). */
  after(): Promise<unknown>
}

const STATES = new WeakMap<RequestContext, AuditState>()

/** The before (and the way to the after) of a change, when `captureBefore` read it. */
export function auditStateOf(ctx: RequestContext): AuditState | undefined {
  return STATES.get(ctx)
}

/** Whether a request is a change whose state is read before and after (cheap: a property lookup). */
export function isAuditedChange(ctx: RequestContext): boolean {
  const route = ctx.endpoint
  const target = route?.target
  if (!route || !target || ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return false
  return Object.hasOwn(STATE_OF, route.path) && target.versioning === 'header' && target.identity.mode === 'internal'
}

/** A GET of an upstream's path over its pool, the answer as JSON, null when it fails (the forwarder's readJson). */
export type UpstreamRead = (target: Upstream, path: string, headers: OutgoingHttpHeaders, timeoutMs: number) => Promise<unknown>

/** Reads the state a forwarded change is about to change (isAuditedChange). */
export async function captureBefore(ctx: RequestContext, get: UpstreamRead): Promise<void> {
  const route = ctx.endpoint
  const target = route?.target
  const of = route ? STATE_OF[route.path] : undefined
  if (!route || !target || !of) return
  const path = target.apiPrefix + of(ctx.endpointPath ?? '')
  const headers: OutgoingHttpHeaders = upstreamHeaders(ctx, target, undefined)
  for (const name of BODY_HEADERS) delete headers[name]
  headers.accept = 'application/json'
  const read = () => get(target, path, headers, READ_TIMEOUT_MS)
  STATES.set(ctx, { before: await read(), after: read })
}
