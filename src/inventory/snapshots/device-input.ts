/**
 * Bodies of `snapshots/{id}/devices`: POST names the devices to rediscover by serial
 * (`{"snList": [...]}`) or by management address (`{"ipList": [...]}`); DELETE is a bare array
 * of serials. Every problem is a 422.
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { isIpv4 } from '../../shared/ipv4.js'

/** Devices one request may name (their rows are gathered in memory before the swap). */
export const MAX_DEVICES_PER_REQUEST = 1000
const MAX_SN = 255

export type DeviceSelection = { by: 'sn'; values: string[] } | { by: 'ip'; values: string[] }

function serials(value: unknown, path: string, issues: ValidationIssue[]): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_DEVICES_PER_REQUEST) {
    issues.push({ message: `"${path}" must be a non-empty array of at most ${MAX_DEVICES_PER_REQUEST} device serial numbers`, path })
    return undefined
  }
  const before = issues.length
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v.length === 0 || v.length > MAX_SN) issues.push({ message: `"${path}[${i}]" must be a device serial number (a non-empty string)`, path: `${path}[${i}]` })
  })
  return issues.length === before ? [...new Set(value as string[])] : undefined
}

/** POST: `{"snList": [...]}` or `{"ipList": [...]}` (one of them). */
export function parseSelection(body: Record<string, unknown>): DeviceSelection {
  const issues: ValidationIssue[] = []
  for (const key of Object.keys(body)) if (key !== 'snList' && key !== 'ipList') issues.push({ message: `"${key}" is not allowed; allowed keys are [snList, ipList]`, path: key })
  const hasSn = body.snList !== undefined
  const hasIp = body.ipList !== undefined
  if (hasSn === hasIp) issues.push({ message: 'the body must hold exactly one of "snList" (serial numbers) or "ipList" (management addresses)' })
  if (issues.length > 0) throw invalidInput(issues)
  if (hasSn) {
    const values = serials(body.snList, 'snList', issues)
    if (!values) throw invalidInput(issues)
    return { by: 'sn', values }
  }
  const list = body.ipList
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_DEVICES_PER_REQUEST) {
    throw invalidInput([{ message: `"ipList" must be a non-empty array of at most ${MAX_DEVICES_PER_REQUEST} IPv4 addresses`, path: 'ipList' }])
  }
  list.forEach((v, i) => {
    if (typeof v !== 'string' || !isIpv4(v)) issues.push({ message: `"ipList[${i}]" must be an IPv4 address`, path: `ipList[${i}]` })
  })
  if (issues.length > 0) throw invalidInput(issues)
  return { by: 'ip', values: [...new Set(list as string[])] }
}

/** DELETE: a bare array of serials. */
export function parseSerials(body: unknown): string[] {
  const issues: ValidationIssue[] = []
  const values = serials(body, 'value', issues)
  if (!values) throw invalidInput(issues)
  return values
}
