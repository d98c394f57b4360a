/**
 * The crawl: start from the seed addresses, collect each device, and queue every LLDP and CDP
 * neighbour's management address. Every address, seeds included, is contacted only when the
 * address policy allows it (address-policy.ts), and only with the credentials whose networks
 * hold it; any other is reported as skipped, with the reason, and never sent a packet.
 * At most `concurrency` devices are collected at once. A device reached by several
 * addresses is collected once (an address another device owns is not contacted, and a second
 * collection of a known serial is dropped as a duplicate). Every address tried is reported.
 */
import { setMaxListeners } from 'node:events'
import { offeredTo, type SnmpCredential } from '../../settings/credentials.js'
import type { AddressPolicy } from './address-policy.js'
import { collectDevice, type Attempt, type CollectLimits } from './collect.js'
import { deviceSn, hostnameOf } from './identity.js'
import type { CollectedDevice } from './model.js'
import { tracing } from '../../../shared/tracing/index.js'

export interface CrawlLimits {
  concurrency: number
  timeoutMs: number
  retries: number
  maxDevices: number
  /** Time between the two readings of the interface counters (0 or absent: one reading, no rates). */
  counterIntervalMs?: number
}

export type FoundBy = 'seed' | 'lldp' | 'cdp'

export interface CrawlAttempt extends Omit<Attempt, 'result'> {
  result: Attempt['result'] | 'duplicate' | 'skipped'
  source: FoundBy
  /** Hostname of the device whose neighbour table named the address (null for seeds). */
  foundBy: string | null
  /** Serial and hostname of the device the address belongs to (also for duplicates). */
  sn: string | null
  hostname: string | null
}

export interface CrawlProgress {
  done: number
  queued: number
  failed: number
  devices: number
}

export interface CrawlOptions {
  seeds: readonly string[]
  /** Which addresses may be contacted. */
  policy: AddressPolicy
  credentials: readonly SnmpCredential[]
  /** Credential id that worked last time, per address: tried first. */
  remembered: ReadonlyMap<string, string>
  limits: CrawlLimits
  signal: AbortSignal
  onProgress?: (p: CrawlProgress) => void
}

export interface CrawlResult {
  devices: Array<{ sn: string; device: CollectedDevice }>
  attempts: CrawlAttempt[]
}

/** The credentials that may be offered to an address, in the order to try them: the remembered one first. */
function ordered(credentials: readonly SnmpCredential[], address: string, rememberedId: string | undefined): SnmpCredential[] {
  const fit = credentials.filter((c) => offeredTo(c, address))
  const first = fit.find((c) => c.id === rememberedId)
  return first ? [first, ...fit.filter((c) => c !== first)] : fit
}

/**
 * One device's collection; with tracing on, as a span of the discovery job's trace (its SNMP
 * exchanges are not spans: a device answers hundreds of them).
 */
function collectTraced(address: string, credentials: readonly SnmpCredential[], limits: CollectLimits, signal: AbortSignal): Promise<Attempt> {
  const t = tracing()
  if (t === undefined || !t.inSpan()) return collectDevice(address, credentials, limits, signal)
  const span = t.child('collect device', 'internal')
  span.setAttribute('network.peer.address', address)
  return t.within(span, () => collectDevice(address, credentials, limits, signal)).then(
    (attempt) => {
      span.setAttribute('netinv.collect.result', attempt.result)
      span.setAttribute('netinv.collect.tries', attempt.tries)
      if (attempt.device) span.setAttribute('netinv.device.hostname', hostnameOf(attempt.device).hostname)
      if (attempt.error !== null) span.setAttribute('netinv.collect.error', attempt.error)
      span.end()
      return attempt
    },
    (err: unknown) => {
      span.setStatus({ code: 2, message: err instanceof Error ? err.message : String(err) })
      span.end()
      throw err
    },
  )
}

export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const { policy, limits, signal } = options
  // every session in flight listens for the stop
  setMaxListeners(limits.concurrency * 2 + 16, signal)
  const queue: Array<{ address: string; source: FoundBy; foundBy: string | null }> = []
  const seen = new Set<string>()
  /** Address → the device (sn, hostname) that owns it. */
  const owner = new Map<string, { sn: string; hostname: string }>()
  const bySn = new Map<string, CollectedDevice>()
  const devices: CrawlResult['devices'] = []
  const attempts: CrawlAttempt[] = []
  let running = 0
  let failed = 0

  const progress = () => options.onProgress?.({ done: attempts.length, queued: queue.length + running, failed, devices: devices.length })
  const skip = (address: string, source: FoundBy, foundBy: string | null, error: string) =>
    attempts.push({ address, result: 'skipped', credential: null, credentialId: null, error, durationMs: 0, tries: 0, device: null, source, foundBy, sn: null, hostname: null })
  const enqueue = (address: string, source: FoundBy, foundBy: string | null) => {
    if (seen.has(address) || owner.has(address)) return
    seen.add(address)
    const refusal = policy.refusal(address)
    if (refusal) skip(address, source, foundBy, `not contacted: ${address} ${refusal}`)
    else if (!options.credentials.some((c) => offeredTo(c, address))) skip(address, source, foundBy, `not contacted: no SNMP credential may be offered to ${address} (it is outside the networks of every credential)`)
    else queue.push({ address, source, foundBy })
  }
  for (const s of options.seeds) enqueue(s, 'seed', null)

  const accept = (item: (typeof queue)[number], attempt: Attempt) => {
    const base = { ...attempt, source: item.source, foundBy: item.foundBy }
    const d = attempt.device
    if (!d) {
      failed++
      attempts.push({ ...base, sn: null, hostname: null })
      return
    }
    const sn = deviceSn(d)
    const { hostname } = hostnameOf(d)
    const known = bySn.get(sn)
    if (known) {
      attempts.push({ ...base, device: null, result: 'duplicate', error: `same device as ${hostnameOf(known).hostname} (${known.address})`, sn, hostname })
      return
    }
    bySn.set(sn, d)
    devices.push({ sn, device: d })
    attempts.push({ ...base, sn, hostname })
    for (const a of [d.address, ...d.addresses.map((x) => x.ip)]) owner.set(a, { sn, hostname })
    for (const r of d.lldp?.remotes ?? []) for (const a of r.mgmtAddresses) enqueue(a, 'lldp', hostname)
    for (const c of d.cdp) if (c.address) enqueue(c.address, 'cdp', hostname)
  }

  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (signal.aborted) {
        if (running === 0) reject(signal.reason instanceof Error ? signal.reason : new Error('the discovery was stopped'))
        return
      }
      while (running < limits.concurrency && queue.length > 0) {
        const item = queue.shift()!
        if (owner.has(item.address)) continue
        if (devices.length + running >= limits.maxDevices) {
          skip(item.address, item.source, item.foundBy, `the limit of ${limits.maxDevices} devices per discovery was reached`)
          continue
        }
        running++
        const credentials = ordered(options.credentials, item.address, options.remembered.get(item.address))
        collectTraced(item.address, credentials, limits, signal).then(
          (attempt) => {
            running--
            accept(item, attempt)
            progress()
            pump()
          },
          (err: unknown) => {
            running--
            if (signal.aborted) pump()
            else reject(err)
          },
        )
      }
      if (running === 0 && queue.length === 0) resolve()
    }
    pump()
  })
  return { devices, attempts }
}
