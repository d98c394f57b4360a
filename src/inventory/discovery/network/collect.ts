/**
 * Collection of one device: find a credential that works (the one remembered for the address
 * first, then the list in order), then read every MIB group. A group that fails is a warning on
 * the device, not the end of its collection.
 */
import type { SnmpCredential } from '../../settings/credentials.js'
import { collectBridge } from './mibs/bridge.js'
import { collectCdp } from './mibs/cdp.js'
import { counterRates, readCounters, type CounterReading } from './mibs/counters.js'
import { collectEntity } from './mibs/entity.js'
import { collectSensors } from './mibs/sensors.js'
import { collectJuniperDom } from './mibs/juniper-dom.js'
import { ENTERPRISES, enterpriseOf } from './vendor.js'
import { collectFhrp } from './mibs/fhrp.js'
import { collectInterfaces } from './mibs/interfaces.js'
import { collectAddresses, collectArp, collectForwarding } from './mibs/ip.js'
import { collectIpv6Addresses } from './mibs/ipv6.js'
import { collectLag } from './mibs/lag.js'
import { collectLldp } from './mibs/lldp.js'
import { collectRoutes } from './mibs/routes.js'
import { collectBgp, collectOspf } from './mibs/routing.js'
import { collectOspfv3 } from './mibs/ospfv3.js'
import { collectStp } from './mibs/stp.js'
import { collectSwitchports } from './mibs/switchports.js'
import { collectVrfs } from './mibs/vrf.js'
import { applyVlanInstances, collectVlanInstances } from './mibs/vlan-instances.js'
import { collectCiscoMst } from './mibs/cisco-mst.js'
import { collectMstp } from './mibs/mstp.js'
import { collectMemory, collectSystem } from './mibs/system.js'
import { newDevice, perVlanTrees, type CollectedDevice, type SystemInfo } from './model.js'
import { SnmpClient, type SnmpLimits } from './snmp/client.js'
import { ERROR_TYPES, SnmpError, classify } from './snmp/errors.js'
import { devicesCollected } from '../../metrics.js'
import { setTimeout as sleep } from 'node:timers/promises'

/** MIB groups read at once from one device (agents answer one request at a time; two hide the round trip). */
const GROUPS_AT_ONCE = 2

export type AttemptResult = 'ok' | 'timeout' | 'auth' | 'refused' | 'error'

export interface Attempt {
  address: string
  result: AttemptResult
  /** Name of the credential that worked, null when none did. */
  credential: string | null
  credentialId: string | null
  error: string | null
  durationMs: number
  /** Credentials tried. */
  tries: number
  device: CollectedDevice | null
}

/** Kinds of failure in the order they explain a device best: a refusal says more than silence. */
const WEIGHT: Readonly<Record<string, number>> = { refused: 4, auth: 3, protocol: 2, 'too-big': 2, timeout: 1 }

async function login(
  address: string,
  credentials: readonly SnmpCredential[],
  limits: SnmpLimits,
  signal: AbortSignal,
): Promise<{ client: SnmpClient; credential: SnmpCredential; system: SystemInfo; tries: number } | { error: SnmpError; tries: number }> {
  const failures: Array<{ credential: string; error: SnmpError }> = []
  for (const credential of credentials) {
    const client = new SnmpClient(address, credential, limits, signal)
    try {
      const system = await collectSystem(client)
      if (system.objectId === null && system.name === null) throw new SnmpError('protocol', 'the agent returned no system group')
      return { client, credential, system, tries: failures.length + 1 }
    } catch (err) {
      client.close()
      const e = classify(err)
      if (e.kind === 'stopped') throw e
      failures.push({ credential: credential.name, error: e })
      if (e.kind === 'refused') break
    }
  }
  if (failures.length === 0) return { error: new SnmpError('auth', 'no SNMP credential is configured'), tries: 0 }
  const worst = failures.reduce((a, b) => ((WEIGHT[b.error.kind] ?? 0) > (WEIGHT[a.error.kind] ?? 0) ? b : a))
  const message = failures.length === 1 ? worst.error.message : failures.map((f) => `${f.credential}: ${f.error.message}`).join('; ')
  return { error: new SnmpError(worst.error.kind, message), tries: failures.length }
}

const RESULT: Readonly<Record<string, AttemptResult>> = { timeout: 'timeout', auth: 'auth', refused: 'refused' }

/**
 * What a collection may be told beyond the SNMP client's limits: `counterIntervalMs` > 0 reads the
 * interface counters a first time with the other groups and a second time once at least that long
 * has passed since (the other groups' time counts), for traffic rates; 0 or absent reads them once.
 */
export type CollectLimits = SnmpLimits & { counterIntervalMs?: number }

/** Waits out what is left of `ms` since `since` (performance.now()), or until the discovery is stopped. */
async function waitSince(since: number, ms: number, signal: AbortSignal): Promise<void> {
  const left = since + ms - performance.now()
  if (left <= 0) return
  try {
    await sleep(left, undefined, { signal })
  } catch {
    throw new SnmpError('stopped', 'the discovery was stopped')
  }
}

/**
 * The groups a device did not answer in time, read again once each, one at a time, after all the
 * others: an agent answers SNMP at a low priority and a device busy for a moment (a routing
 * change, a configuration save, a loaded machine) drops requests a little later answered. A group
 * silent again is a warning, and so is every group after it without asking: a device gone for
 * good costs one more timeout, not one per group.
 */
async function secondChance(silent: ReadonlyArray<readonly [string, () => Promise<void>]>, warnings: CollectedDevice['warnings']): Promise<void> {
  let gone = false
  for (const [name, run] of silent) {
    if (gone) {
      warnings.push({ type: ERROR_TYPES.timeout, message: `${name}: not asked again, the device stopped answering` })
      continue
    }
    try {
      await run()
    } catch (err) {
      const e = classify(err)
      if (e.kind === 'stopped') throw e
      gone = e.kind === 'timeout'
      warnings.push({ type: ERROR_TYPES[e.kind], message: gone ? `${name}: no answer in time, twice` : `${name}: ${e.message}` })
    }
  }
}

export async function collectDevice(address: string, credentials: readonly SnmpCredential[], limits: CollectLimits, signal: AbortSignal): Promise<Attempt> {
  const started = performance.now()
  const session = await login(address, credentials, limits, signal)
  if ('error' in session) {
    devicesCollected.inc({ result: RESULT[session.error.kind] ?? 'error' })
    return {
      address,
      result: RESULT[session.error.kind] ?? 'error',
      credential: null,
      credentialId: null,
      error: session.error.message,
      durationMs: Math.round(performance.now() - started),
      tries: session.tries,
      device: null,
    }
  }
  const { client, credential, system } = session
  const device: CollectedDevice = newDevice(address, { id: credential.id, name: credential.name }, system)
  const warnings = device.warnings
  const counterIntervalMs = limits.counterIntervalMs ?? 0
  const reading: { first: CounterReading | null } = { first: null }
  let bridgeDone = (): void => {}
  const bridgeRead = new Promise<void>((resolve) => (bridgeDone = resolve))
  let bridgeSilent: SnmpError | null = null
  /** Waits for the bridge group (the other worker may still be reading it); a bridge group not answered is read again before the groups after it, which then follow it. */
  const afterBridge = async (): Promise<void> => {
    await bridgeRead
    if (bridgeSilent !== null) throw bridgeSilent
  }
  const groups: Array<[string, () => Promise<void>]> = [
    // first, so that the other groups' time counts toward the interval of the rates
    ...(counterIntervalMs > 0 ? [['counters', async () => void (reading.first = await readCounters(client))] as [string, () => Promise<void>]] : []),
    ['interfaces', async () => void (device.interfaces = await collectInterfaces(client))],
    ['entity', async () => void (device.entity = await collectEntity(client))],
    [
      'sensors',
      async () => {
        const { sensors, ports } = await collectSensors(client)
        device.sensors = sensors
        device.entityPorts = ports
        // Junos answers its optics in JUNIPER-DOM-MIB, by interface
        if (sensors.length === 0 && ENTERPRISES[enterpriseOf(device.system.objectId) ?? 0] === 'juniper') device.dom = await collectJuniperDom(client)
      },
    ],
    ['addresses', async () => void (device.addresses = await collectAddresses(client))],
    ['arp', async () => void (device.arp = await collectArp(client))],
    ['forwarding', async () => void (device.ipForwarding = await collectForwarding(client))],
    // the global table and the VRFs' tables each add their routes (a loop: a full table is too many arguments for one push)
    ['routes', async () => void (await collectRoutes(client)).forEach((r) => device.routes.push(r))],
    [
      'vrfs',
      async () => {
        const vrfs = await collectVrfs(client)
        device.vrfs = vrfs.interfaces
        for (const r of vrfs.routes) device.routes.push(r)
      },
    ],
    ['lldp', async () => void (device.lldp = await collectLldp(client))],
    ['cdp', async () => void (device.cdp = await collectCdp(client))],
    ['bgp', async () => void (device.bgp = await collectBgp(client))],
    ['ospf', async () => void (device.ospf = await collectOspf(client))],
    ['ospfv3', async () => void (device.ospfv3 = await collectOspfv3(client))],
    [
      'bridge',
      async () => {
        try {
          device.bridge = await collectBridge(client)
          // port VLANs and spanning tree only where there is a bridge (no requests for a router)
          if (device.bridge) [device.switchports, device.stp] = await Promise.all([collectSwitchports(client), collectStp(client)])
          bridgeSilent = null
        } catch (err) {
          const e = classify(err)
          bridgeSilent = e.kind === 'timeout' ? e : null
          throw e
        } finally {
          bridgeDone()
        }
      },
    ],
    [
      // after the bridge group (the other worker may still be reading it), a group of its own: a
      // switch that does not answer its VLANs' instances loses nothing of the bridge's
      'bridge per VLAN',
      async () => {
        await afterBridge()
        const { bridge, stp } = device
        if (bridge && stp && perVlanTrees(stp)) applyVlanInstances(bridge, stp, await collectVlanInstances(client, bridge))
      },
    ],
    [
      // after the bridge group too: the MSTIs of a bridge with one tree for every VLAN (MSTP, or
      // an agent that does not say its mode); one request where the agent has no IEEE8021-MSTP-MIB,
      // and a Cisco switch in MST mode answers CISCO-STP-EXTENSIONS-MIB instead
      'mstp',
      async () => {
        await afterBridge()
        const { stp } = device
        if (!stp || perVlanTrees(stp) || stp.mode === 'rstp') return
        let { instances, region } = await collectMstp(client)
        if (instances.length === 0 && stp.mode === 'mstp') ({ instances, region } = await collectCiscoMst(client))
        stp.instances = instances
        stp.region = region
        if (instances.length > 0) stp.mode = 'mstp'
      },
    ],
    ['lag', async () => void (device.lag = await collectLag(client))],
    ['ipv6', async () => void (device.addresses6 = await collectIpv6Addresses(client))],
    ['fhrp', async () => void (device.fhrp = await collectFhrp(client))],
    ['memory', async () => void (device.memory = await collectMemory(client))],
  ]
  try {
    const silent: Array<[string, () => Promise<void>]> = []
    let next = 0
    const worker = async () => {
      while (next < groups.length) {
        const group = groups[next++]!
        try {
          await group[1]()
        } catch (err) {
          const e = classify(err)
          if (e.kind === 'stopped') throw e
          if (e.kind === 'timeout') silent.push(group)
          else warnings.push({ type: ERROR_TYPES[e.kind], message: `${group[0]}: ${e.message}` })
        }
      }
    }
    await Promise.all(Array.from({ length: GROUPS_AT_ONCE }, worker))
    // in the groups' order: a group read again before those that follow it
    await secondChance(silent.sort((a, b) => groups.indexOf(a) - groups.indexOf(b)), warnings)
    const first = reading.first
    if (first !== null) {
      await waitSince(first.at, counterIntervalMs, signal)
      try {
        device.rates = counterRates(first, await readCounters(client))
      } catch (err) {
        const e = classify(err)
        if (e.kind === 'stopped') throw e
        warnings.push({ type: ERROR_TYPES[e.kind], message: `counters: ${e.message}` })
      }
    }
  } finally {
    client.close()
  }
  device.requests = client.requests
  device.durationMs = Math.round(performance.now() - started)
  devicesCollected.inc({ result: 'ok' })
  return {
    address,
    result: 'ok',
    credential: credential.name,
    credentialId: credential.id,
    error: warnings.length > 0 ? warnings.map((w) => w.message).join('; ') : null,
    durationMs: device.durationMs,
    tries: session.tries,
    device,
  }
}
