/**
 * What the inventory's operations answer on success, for its OpenAPI document: the status (and
 * the body where its shape is stable enough to promise). The gateway adds its own error
 * statuses and headers when it composes the public document.
 */
import type { JsonSchema } from './tables.js'

const REF = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] })
const timestamp: JsonSchema = { type: ['integer', 'null'], description: 'Milliseconds since the epoch.' }

/** Success status(es) by `METHOD path`; otherwise 204 for DELETE and 200 for the rest. */
const SUCCESS: Readonly<Record<string, readonly number[]>> = {
  'POST reports': [201],
  'POST settings/snmp': [201],
  'POST snapshots': [201],
  'POST snapshots/upload': [201],
  'POST snapshots/:id/clone': [201],
  'POST attributes/global': [201],
  // starts a rediscovery job: accepted, polled in tables/jobs
  'POST snapshots/:id/devices': [202],
  'POST snapshots/:id/load': [204],
  'POST snapshots/:id/unload': [204],
  'POST jobs/:id/stop': [200, 202],
}

/** Where an endpoint version answers otherwise: `METHOD path` → version → statuses. */
const SUCCESS_BY_VERSION: Readonly<Record<string, Readonly<Record<number, readonly number[]>>>> = {
  // version 1 (the original and path generations) answers as the Ansible collection expects
  'POST snapshots/:id/clone': { 1: [204] },
  'POST snapshots/:id/devices': { 1: [200] },
}

export function successStatuses(method: string, path: string, version?: number): readonly number[] {
  const key = `${method} ${path}`
  const ofVersion = version === undefined ? undefined : SUCCESS_BY_VERSION[key]?.[version]
  return ofVersion ?? SUCCESS[key] ?? (method === 'DELETE' ? [204] : [200])
}

const Snapshot: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: nullable('string'),
    note: nullable('string'),
    state: { enum: ['loaded', 'unloaded', 'discovering'] },
    status: { enum: ['done', 'unloaded', 'ready', 'run', 'finishing', 'error'] },
    finishStatus: { enum: ['done', 'error', null] },
    locked: { type: 'boolean' },
    version: { type: 'string' },
    tsStart: timestamp,
    tsEnd: timestamp,
    sites: { type: 'array' },
    errors: { type: 'array' },
  },
  required: ['id', 'state', 'status', 'locked'],
}

const Job: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string' },
    isDone: { type: 'boolean' },
    snapshot: nullable('string'),
    scheduledAt: timestamp,
    startedAt: timestamp,
    finishedAt: timestamp,
    username: nullable('string'),
  },
  required: ['id', 'name', 'status', 'isDone'],
}

const Started: JsonSchema = { type: 'object', properties: { success: { const: true }, id: { type: 'string' }, jobId: { type: 'string' } }, required: ['success', 'id', 'jobId'] }

/** A table as `GET tables` lists it (query/describe.ts `summarizeTable`). */
const TableSummary: JsonSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Endpoint path under tables/, e.g. "inventory/devices".' },
    legacyPaths: { type: 'array', items: { type: 'string' }, description: 'v4-era camelCase paths that answer too.' },
    title: { type: 'string' },
    description: { type: 'string' },
    snapshotScoped: { type: 'boolean', description: 'Whether a request names a snapshot.' },
    collected: {
      type: 'boolean',
      description: 'Whether netinv fills the table. false: a table of the API family for a technology netinv neither simulates nor discovers; it answers with its columns and no rows, and its description says "Not collected by netinv".',
    },
    webPath: { type: 'string', description: 'Web path of the table, for `reports`.' },
    defaultSort: { type: 'object', properties: { column: { type: 'string' }, order: { enum: ['asc', 'desc'] } }, required: ['column', 'order'] },
    key: { type: 'array', items: { type: 'string' }, description: 'Columns that name the same row in two snapshots.' },
    volatile: { type: 'array', items: { type: 'string' }, description: 'Columns a comparison ignores unless asked.' },
    columns: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' }, values: { type: 'array', items: { type: 'string' } } },
        required: ['name', 'type', 'description'],
      },
    },
  },
  required: ['path', 'legacyPaths', 'title', 'description', 'snapshotScoped', 'collected', 'webPath', 'defaultSort', 'key', 'volatile', 'columns'],
}

/** Shared schemas of success bodies. */
export const BODY_COMPONENTS: Readonly<Record<string, JsonSchema>> = { Snapshot, Job, Started, TableSummary }

const list = (item: string): JsonSchema => ({ type: 'array', items: REF(item) })

/** The success body of `METHOD path` where its shape is promised; any JSON otherwise. */
const BODIES: Readonly<Record<string, JsonSchema>> = {
  'GET snapshots': list('Snapshot'),
  'POST snapshots': REF('Started'),
  'POST snapshots/upload': REF('Started'),
  'GET snapshots/:id': REF('Snapshot'),
  'PATCH snapshots/:id': REF('Snapshot'),
  'POST snapshots/:id/lock': REF('Snapshot'),
  'POST snapshots/:id/unlock': REF('Snapshot'),
  'GET jobs/:id': REF('Job'),
  'POST jobs/:id/stop': REF('Job'),
  'GET tables': list('TableSummary'),
  'GET tables/management/configuration/compare': {
    type: 'object',
    properties: {
      from: { type: 'string', description: 'Fingerprint of the older text.' },
      to: { type: 'string', description: 'Fingerprint of the newer text.' },
      identical: { type: 'boolean' },
      added: { type: 'integer', description: 'Lines only `to` has.' },
      removed: { type: 'integer', description: 'Lines only `from` has.' },
      diff: { type: 'string', description: 'Unified diff ("--- from", "+++ to", hunks); empty when identical.' },
    },
    required: ['from', 'to', 'identical', 'added', 'removed', 'diff'],
  },
}

export function successBody(method: string, path: string): JsonSchema {
  return BODIES[`${method} ${path}`] ?? {}
}
