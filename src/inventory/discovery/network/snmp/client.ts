/**
 * One SNMP conversation with one device (v2c or v3, through the `net-snmp` library): GET of
 * scalars and GETBULK walks of several table columns at once, each request bounded by the
 * timeout and retries of the discovery limits, the whole conversation stopped by an abort signal.
 */
import snmp from 'net-snmp'
import type { SnmpCredential } from '../../../settings/credentials.js'
import { SnmpError, classify } from './errors.js'
import { compareOid, isEndOfColumn, tableRows, type TableRow, type Vb } from './values.js'

export interface SnmpLimits {
  timeoutMs: number
  retries: number
}

/** Varbinds per GETBULK response we ask for (columns × repetitions): below agents' size limits. */
const BULK_VARBINDS = 48
/** Rows a single table walk may return before it stops (a full Internet routing table, ...). */
export const MAX_ROWS = 200_000

const AUTH = { SHA: snmp.AuthProtocols.sha, 'SHA-256': snmp.AuthProtocols.sha256 } as const

function openSession(address: string, credential: SnmpCredential, limits: SnmpLimits, context: string): snmp.Session {
  const options = { timeout: limits.timeoutMs, retries: limits.retries, backoff: 1, idBitsSize: 32 as const, ...(context === '' ? {} : { context }) }
  if (credential.version === '2c') return snmp.createSession(address, credential.community, { ...options, version: snmp.Version2c })
  const user: snmp.User = { name: credential.user, level: snmp.SecurityLevel.noAuthNoPriv }
  if (credential.authProtocol && credential.authPassword) {
    user.level = snmp.SecurityLevel.authNoPriv
    user.authProtocol = AUTH[credential.authProtocol]
    user.authKey = credential.authPassword
    if (credential.privProtocol && credential.privPassword) {
      user.level = snmp.SecurityLevel.authPriv
      user.privProtocol = snmp.PrivProtocols.aes
      user.privKey = credential.privPassword
    }
  }
  return snmp.createV3Session(address, user, options)
}

/** What the MIB modules read through: scalars, column walks and tables (tests give them recorded varbinds). */
export interface MibReader {
  get(oids: readonly string[]): Promise<Map<string, Vb>>
  walk(columns: readonly string[], maxRows?: number): Promise<Map<string, Vb[]>>
  table(names: Readonly<Record<string, string>>): Promise<TableRow[]>
  /**
   * The same device's MIB instance of one VLAN, as Cisco switches index their BRIDGE-MIB (spanning
   * tree and MAC table of each VLAN): the community "community@vlan" with SNMPv2c, the context
   * "vlan-N" with SNMPv3. Closed by the caller.
   */
  inVlan(vlan: number): MibReader & { close(): void }
}

/** A credential as it reads a VLAN's instance of a Cisco switch's BRIDGE-MIB (the community or the SNMPv3 context). */
function vlanCredential(credential: SnmpCredential, vlan: number): { credential: SnmpCredential; context: string } {
  if (credential.version === '2c') return { credential: { ...credential, community: `${credential.community}@${vlan}` }, context: '' }
  return { credential, context: `vlan-${vlan}` }
}

export class SnmpClient implements MibReader {
  private readonly session: snmp.Session
  private closed = false
  /** Requests sent to the device, in every VLAN's instance too (for the collector's statistics). */
  get requests(): number {
    return this.tally.requests
  }

  constructor(
    readonly address: string,
    private readonly credential: SnmpCredential,
    private readonly limits: SnmpLimits,
    private readonly signal?: AbortSignal,
    context = '',
    private readonly tally = { requests: 0 },
  ) {
    this.session = openSession(address, credential, limits, context)
    // socket errors surface as request errors; an unhandled 'error' event would end the process
    this.session.on('error', () => {})
    signal?.addEventListener('abort', this.abort, { once: true })
  }

  private readonly abort = () => this.close()

  /** A request's error; requests cut short by a stop are "stopped", whatever the library says. */
  private failure(err: unknown): SnmpError {
    return this.closed || this.signal?.aborted ? new SnmpError('stopped', 'the discovery was stopped') : classify(err)
  }

  private check(): void {
    if (this.signal?.aborted) throw new SnmpError('stopped', 'the discovery was stopped')
    if (this.closed) throw new SnmpError('stopped', 'the session is closed')
  }

  /** Scalars by OID; an OID the agent does not have is absent from the result. */
  async get(oids: readonly string[]): Promise<Map<string, Vb>> {
    this.check()
    this.tally.requests++
    const varbinds = await new Promise<snmp.Varbind[]>((resolve, reject) => {
      this.session.get([...oids], (err, vbs) => (err ? reject(this.failure(err)) : resolve(vbs ?? [])))
    })
    const out = new Map<string, Vb>()
    for (const vb of varbinds) if (!snmp.isVarbindError(vb)) out.set(vb.oid, vb as Vb)
    return out
  }

  private bulk(oids: string[], repetitions: number): Promise<snmp.Varbind[][]> {
    this.check()
    this.tally.requests++
    return new Promise((resolve, reject) => {
      this.session.getBulk(oids, 0, repetitions, (err, vbs) => (err ? reject(this.failure(err)) : resolve((vbs ?? []) as unknown as snmp.Varbind[][])))
    })
  }

  /**
   * Walks table columns together with GETBULK: each response carries rows of every column still
   * being walked. Returns, per column OID, its varbinds in order. A column the agent does not
   * have comes back empty.
   */
  async walk(columns: readonly string[], maxRows = MAX_ROWS): Promise<Map<string, Vb[]>> {
    const result = new Map<string, Vb[]>(columns.map((c) => [c, []]))
    let active = columns.map((c) => ({ column: c, last: c }))
    let repetitions = Math.max(1, Math.floor(BULK_VARBINDS / Math.max(1, active.length)))
    while (active.length > 0) {
      let response: snmp.Varbind[][]
      try {
        response = await this.bulk(
          active.map((a) => a.last),
          repetitions,
        )
      } catch (err) {
        if (err instanceof SnmpError && err.kind === 'too-big' && repetitions > 1) {
          repetitions = Math.max(1, Math.floor(repetitions / 2))
          continue
        }
        throw err
      }
      const next: typeof active = []
      active.forEach((a, i) => {
        const rows = result.get(a.column)!
        let done = false
        for (const vb of response[i] ?? []) {
          // an agent that answers an OID not after the last one would walk in circles
          if (isEndOfColumn(vb, a.column) || compareOid(vb.oid, a.last) <= 0) {
            done = true
            break
          }
          rows.push(vb as Vb)
          a.last = vb.oid
        }
        if ((response[i] ?? []).length === 0) done = true
        if (!done && rows.length < maxRows) next.push(a)
      })
      active = next
    }
    return result
  }

  /** A table's rows from the columns named (name → column OID). */
  async table(names: Readonly<Record<string, string>>): Promise<TableRow[]> {
    return tableRows(await this.walk(Object.values(names)), names)
  }

  inVlan(vlan: number): SnmpClient {
    const { credential, context } = vlanCredential(this.credential, vlan)
    // the device's count: what a VLAN's instance is asked is asked of the device
    return new SnmpClient(this.address, credential, this.limits, this.signal, context, this.tally)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.signal?.removeEventListener('abort', this.abort)
    try {
      this.session.close()
    } catch {
      // already closed
    }
  }
}
