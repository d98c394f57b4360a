/**
 * Request bodies of `attributes/global` and `attributes/local`, in the shapes the 5.x/6.x SDK
 * sends: one attribute `{sn, name, value}` (POST), a list `{attributes: [...], snapshot?}` (PUT),
 * and a delete `{attributes: {sn: [...]} | {id: [...]}, snapshot?}`. Every problem is a 422.
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'

/** Attribute names as the SDK checks them (a letter first, no trailing underscore). */
export const ATTRIBUTE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*[a-zA-Z0-9]+$/
export const MAX_ATTRIBUTES = 10000
const MAX_NAME = 64
const MAX_TEXT = 1000

export interface AttributeInput {
  sn: string
  name: string
  value: string
}

/** Which rows a delete names. */
export type AttributeSelector = { by: 'sn' | 'id'; values: string[] }

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function text(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max
}

function attribute(raw: unknown, path: string, issues: ValidationIssue[]): AttributeInput | undefined {
  if (!isRecord(raw)) {
    issues.push({ message: `"${path}" must be an object {sn, name, value}`, path })
    return undefined
  }
  const before = issues.length
  // `id` is tolerated: clients send back rows they listed
  for (const key of Object.keys(raw)) if (!['sn', 'name', 'value', 'id'].includes(key)) issues.push({ message: `"${path}.${key}" is not allowed; allowed keys are [sn, name, value]`, path: `${path}.${key}` })
  if (!text(raw.sn, MAX_TEXT)) issues.push({ message: `"${path}.sn" must be a device serial number (a non-empty string)`, path: `${path}.sn` })
  if (typeof raw.name !== 'string' || raw.name.length > MAX_NAME || !ATTRIBUTE_NAME.test(raw.name)) {
    issues.push({ message: `"${path}.name" must match ${ATTRIBUTE_NAME.source} (at most ${MAX_NAME} characters)`, path: `${path}.name` })
  }
  if (!text(raw.value, MAX_TEXT)) issues.push({ message: `"${path}.value" must be a non-empty string of at most ${MAX_TEXT} characters`, path: `${path}.value` })
  return issues.length === before ? { sn: raw.sn as string, name: raw.name as string, value: raw.value as string } : undefined
}

function allowOnly(body: Record<string, unknown>, keys: readonly string[], issues: ValidationIssue[]): void {
  for (const key of Object.keys(body)) if (!keys.includes(key)) issues.push({ message: `"${key}" is not allowed; allowed keys are [${keys.join(', ')}]`, path: key })
}

function snapshotRef(body: Record<string, unknown>, local: boolean, issues: ValidationIssue[]): string | undefined {
  if (!local) return undefined
  if (typeof body.snapshot !== 'string' || body.snapshot === '') {
    issues.push({ message: '"snapshot" is required: the id of the snapshot whose attributes change', path: 'snapshot' })
    return undefined
  }
  return body.snapshot
}

/** POST attributes/global: one attribute. */
export function parseOne(body: Record<string, unknown>): AttributeInput {
  const issues: ValidationIssue[] = []
  const a = attribute(body, 'value', issues)
  if (!a) throw invalidInput(issues.map((i) => ({ ...i, message: i.message.replace('"value.', '"') })))
  return a
}

/** PUT: a list to add or update; `snapshot` for local attributes. */
export function parseList(body: Record<string, unknown>, local: boolean): { snapshot: string | undefined; attributes: AttributeInput[] } {
  const issues: ValidationIssue[] = []
  allowOnly(body, local ? ['attributes', 'snapshot'] : ['attributes'], issues)
  const snapshot = snapshotRef(body, local, issues)
  const list = body.attributes
  const attributes: AttributeInput[] = []
  if (!Array.isArray(list) || list.length > MAX_ATTRIBUTES) {
    issues.push({ message: `"attributes" must be an array of at most ${MAX_ATTRIBUTES} objects {sn, name, value}`, path: 'attributes' })
  } else {
    const seen = new Set<string>()
    list.forEach((raw, i) => {
      const a = attribute(raw, `attributes[${i}]`, issues)
      if (!a) return
      const key = JSON.stringify([a.sn, a.name])
      if (seen.has(key)) issues.push({ message: `"attributes[${i}]" sets ${a.name} of ${a.sn} a second time`, path: `attributes[${i}]` })
      seen.add(key)
      attributes.push(a)
    })
  }
  if (issues.length > 0) throw invalidInput(issues)
  return { snapshot, attributes }
}

/** DELETE: rows by device serial or by attribute id; `snapshot` for local attributes. */
export function parseDelete(body: Record<string, unknown>, local: boolean): { snapshot: string | undefined; selector: AttributeSelector } {
  const issues: ValidationIssue[] = []
  allowOnly(body, local ? ['attributes', 'snapshot'] : ['attributes'], issues)
  const snapshot = snapshotRef(body, local, issues)
  const sel = body.attributes
  let selector: AttributeSelector | undefined
  const keys = isRecord(sel) ? Object.keys(sel) : []
  if (!isRecord(sel) || keys.length !== 1 || (keys[0] !== 'sn' && keys[0] !== 'id')) {
    issues.push({ message: '"attributes" must be {"sn": [serial, ...]} or {"id": [attribute id, ...]}', path: 'attributes' })
  } else {
    const by = keys[0] as 'sn' | 'id'
    const values = sel[by]
    if (!Array.isArray(values) || values.length === 0 || values.length > MAX_ATTRIBUTES || !values.every((v) => text(v, MAX_TEXT))) {
      issues.push({ message: `"attributes.${by}" must be a non-empty array of at most ${MAX_ATTRIBUTES} strings`, path: `attributes.${by}` })
    } else selector = { by, values: values as string[] }
  }
  if (issues.length > 0 || !selector) throw invalidInput(issues)
  return { snapshot, selector }
}
