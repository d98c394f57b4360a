/**
 * What went wrong talking to a device, as a small set of kinds the connectivity report and the
 * snapshot's error counts use. Messages never carry a credential.
 */
import snmp from 'net-snmp'
import { snmpErrors } from '../../../metrics.js'

export type SnmpErrorKind = 'timeout' | 'auth' | 'too-big' | 'refused' | 'protocol' | 'stopped'

/** Snapshot error type per kind (the `errors` list of a snapshot counts these). */
export const ERROR_TYPES: Readonly<Record<SnmpErrorKind, string>> = {
  timeout: 'SNMP_TIMEOUT',
  auth: 'SNMP_AUTHENTICATION',
  'too-big': 'SNMP_TOO_BIG',
  refused: 'SNMP_UNREACHABLE',
  protocol: 'SNMP_PROTOCOL',
  stopped: 'STOPPED',
}

export class SnmpError extends Error {
  constructor(
    readonly kind: SnmpErrorKind,
    message: string,
  ) {
    super(message)
    this.name = 'SnmpError'
  }
}

/** USM failures (unknown user, wrong digest, unsupported security level) and decryption errors. */
const AUTH_CODES = new Set<number>([snmp.ResponseInvalidCode.EAuthFailure, snmp.ResponseInvalidCode.ECouldNotDecrypt])

/** Maps an error of the SNMP library (or of the socket) to a kind and a plain message. */
export function classify(err: unknown): SnmpError {
  if (err instanceof SnmpError) return err
  const e = classifyNew(err)
  snmpErrors.inc({ kind: e.kind })
  return e
}

function classifyNew(err: unknown): SnmpError {
  const e = err as { name?: string; message?: string; status?: number; code?: number | string }
  const message = e?.message ?? String(err)
  if (e?.name === 'RequestTimedOutError') return new SnmpError('timeout', 'no answer (wrong community or user, or the device is unreachable)')
  if (e?.name === 'RequestFailedError' && e.status === snmp.ErrorStatus.TooBig) return new SnmpError('too-big', 'response too big')
  if (e?.name === 'ResponseInvalidError') {
    if (typeof e.code === 'number' && AUTH_CODES.has(e.code)) {
      return new SnmpError('auth', `authentication failed: ${message.replace(/\s*\(incorrect password, community or key\)/, '')}`)
    }
    return new SnmpError('protocol', `invalid response: ${message}`)
  }
  if (typeof e?.code === 'string' && /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN/.test(e.code)) return new SnmpError('refused', `unreachable: ${e.code}`)
  if (e?.name === 'RequestFailedError') return new SnmpError('protocol', `the agent answered with an error: ${message}`)
  return new SnmpError('protocol', message)
}
