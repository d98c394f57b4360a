/**
 * The network as a discovery source: crawl from the seeds, then produce the rows of every table
 * a MIB fills, through the same bulk loader as the simulator. Each table's rows come from one
 * mapping module (`rows/`); tables no MIB fills stay empty.
 */
import { paced } from '../../../shared/pace.js'
import type { StoredTableDef } from '../../catalog/index.js'
import { ARP, HOSTS, MAC, MANAGED_DEVS } from '../../catalog/addressing.js'
import { CONNECTIVITY } from '../../catalog/discovery.js'
import { DEVICES, INTERFACES, PART_NUMBERS, SITES } from '../../catalog/inventory.js'
import { NEIGHBORS, SWITCHPORTS, VLANS } from '../../catalog/layer2.js'
import { STP_BRIDGES, STP_GUARDS, STP_INSTANCES, STP_PORTS, STP_TOPOLOGY, STP_VLANS } from '../../catalog/vlans.js'
import { BGP_NEIGHBORS, FHRP_GROUP_STATE, IPV6_ROUTES, OSPF_NEIGHBORS, OSPFV3_NEIGHBORS, ROUTES } from '../../catalog/routing.js'
import { FANS, MODULES, POWER_SUPPLIES } from '../../catalog/environment.js'
import { COUNTERS, PORT_CHANNEL_MEMBERS } from '../../catalog/interface-health.js'
import { TRANSCEIVER_STATISTICS } from '../../catalog/transceivers.js'
import { CONFIG_SAVED } from '../../catalog/consistency.js'
import type { SshCredential } from '../../settings/ssh-credentials.js'
import { collectConfigs, SSH_ERROR_TYPES, type ConfigCollection } from './ssh/collect.js'
import type { HostKey } from './ssh/session.js'
import { configRows } from './rows/configs.js'
import type { SnmpCredential } from '../../settings/credentials.js'
import type { NetworkRun } from '../../settings/network.js'

export type { NetworkRun } from '../../settings/network.js'
import type { Row } from '../../simulator/index.js'
import { objectValues, type TableRows } from '../../storage/index.js'
import { assemble, type Network } from './assemble.js'
import type { AddressPolicy } from './address-policy.js'
import { crawl, type CrawlProgress } from './crawl.js'
import { expandSeeds } from './seeds.js'
import { ERROR_TYPES } from './snmp/errors.js'
import { bgpRows } from './rows/bgp.js'
import { connectivityRows } from './rows/connectivity.js'
import { fhrpRows } from './rows/fhrp.js'
import { deviceRows } from './rows/devices.js'
import { hostRows } from './rows/hosts.js'
import { interfaceRows } from './rows/interfaces.js'
import { macRows, vlanRows } from './rows/layer2.js'
import { arpRows, ipv6RouteRows, routeRows } from './rows/layer3.js'
import { managedDevRows } from './rows/managed.js'
import { counterRows } from './rows/counters.js'
import { neighborRows } from './rows/neighbors.js'
import { partRows } from './rows/parts.js'
import { siteRows } from './rows/sites.js'
import { ospfRows } from './rows/ospf.js'
import { ospfv3Rows } from './rows/ospfv3.js'
import { portChannelRows } from './rows/port-channels.js'
import { switchportRows } from './rows/switchports.js'
import { stpGuardRows, stpInstanceRows, stpPortRows, stpRows, stpTopologyRows, stpVlanRows } from './rows/stp.js'
import { fanRows, moduleRows, powerSupplyRows } from './rows/environment.js'
import { opticsRows } from './rows/optics.js'

/** Each table a MIB fills and the module that maps the collected data to its rows. */
export const NETWORK_TABLES: ReadonlyArray<readonly [StoredTableDef, (net: Network) => Iterable<Row>]> = [
  [SITES, siteRows],
  [DEVICES, deviceRows],
  [INTERFACES, interfaceRows],
  [COUNTERS, counterRows],
  [PART_NUMBERS, partRows],
  [ARP, arpRows],
  [MAC, macRows],
  [MANAGED_DEVS, managedDevRows],
  [HOSTS, hostRows],
  [ROUTES, routeRows],
  [IPV6_ROUTES, ipv6RouteRows],
  [VLANS, vlanRows],
  [NEIGHBORS, neighborRows],
  [BGP_NEIGHBORS, bgpRows],
  [OSPF_NEIGHBORS, ospfRows],
  [OSPFV3_NEIGHBORS, ospfv3Rows],
  [FHRP_GROUP_STATE, fhrpRows],
  [FANS, fanRows],
  [POWER_SUPPLIES, powerSupplyRows],
  [MODULES, moduleRows],
  [PORT_CHANNEL_MEMBERS, portChannelRows],
  [SWITCHPORTS, switchportRows],
  [STP_BRIDGES, stpRows],
  [STP_PORTS, stpPortRows],
  [STP_VLANS, stpVlanRows],
  [STP_INSTANCES, stpInstanceRows],
  [STP_TOPOLOGY, stpTopologyRows],
  [STP_GUARDS, stpGuardRows],
  [TRANSCEIVER_STATISTICS, opticsRows],
  [CONNECTIVITY, connectivityRows],
  [CONFIG_SAVED, configRows],
]


export interface NetworkCollection {
  network: Network
  /** Every table's rows, table by table, for the loader. */
  tables(): Generator<TableRows>
  /** Failures by type (addresses that did not answer, MIB groups that failed). */
  errors: Array<{ errorType: string; count: number }>
  sites: Array<{ siteName: string; uid: string; id: string }>
  /** What the SSH collection of configurations found: texts to keep, host keys seen first now. */
  configs: ConfigCollection
}

/** The SSH side of a collection: credentials and the host keys recorded so far. */
export interface SshOptions {
  credentials: readonly SshCredential[]
  known: ReadonlyMap<string, HostKey>
}

/** Default time limit of an SSH login and of each prompt (settings `limits.sshTimeoutMs`). */
export const DEFAULT_SSH_TIMEOUT_MS = 15_000
/** Devices whose configuration is read at once. */
const SSH_CONCURRENCY = 8

const FAILURE_TYPES: Readonly<Record<string, string>> = { timeout: ERROR_TYPES.timeout, auth: ERROR_TYPES.auth, refused: ERROR_TYPES.refused, error: ERROR_TYPES.protocol }

export async function collectNetwork(options: {
  run: NetworkRun
  /** Which addresses may be contacted (built from the discovery settings of now). */
  policy: AddressPolicy
  credentials: readonly SnmpCredential[]
  remembered: ReadonlyMap<string, string>
  signal: AbortSignal
  taskKey: string
  onProgress?: (p: CrawlProgress) => void
  /** SSH credentials and known host keys: each device's running configuration is read with them. */
  ssh?: SshOptions
}): Promise<NetworkCollection> {
  const { run } = options
  const result = await crawl({
    seeds: expandSeeds(run.seeds),
    policy: options.policy,
    credentials: options.credentials,
    remembered: options.remembered,
    limits: run.limits,
    signal: options.signal,
    onProgress: options.onProgress,
  })
  const network = assemble(result, run.siteRules, run.defaultSite, options.taskKey)
  const counts = new Map<string, number>()
  const count = (type: string) => counts.set(type, (counts.get(type) ?? 0) + 1)
  for (const a of result.attempts) if (FAILURE_TYPES[a.result]) count(FAILURE_TYPES[a.result]!)
  for (const { device } of result.devices) for (const w of device.warnings) count(w.type)
  const configs = options.ssh && options.ssh.credentials.length > 0
    ? await collectConfigs({
        targets: network.devices.map((d) => ({ sn: d.sn, address: d.d.address, family: d.identity.family })),
        credentials: options.ssh.credentials,
        known: options.ssh.known,
        timeoutMs: run.limits.sshTimeoutMs ?? DEFAULT_SSH_TIMEOUT_MS,
        concurrency: Math.min(SSH_CONCURRENCY, run.limits.concurrency),
        signal: options.signal,
      })
    : { configs: [], failures: [], newHostKeys: [] }
  for (const c of configs.configs) network.configs.set(c.sn, { hash: c.hash, text: c.text, status: c.status })
  for (const f of configs.failures) {
    count(SSH_ERROR_TYPES[f.kind])
    // the device's own line of the connectivity report says why its configuration is missing
    const attempt = result.attempts.find((a) => a.sn === f.sn && a.result === 'ok')
    if (attempt) attempt.error = [attempt.error, `configuration: ${f.message}`].filter((x) => x !== null).join('; ')
  }
  const sites = [...new Set(network.devices.map((d) => d.siteName))].sort()
  return {
    network,
    errors: [...counts].map(([errorType, n]) => ({ errorType, count: n })).sort((a, b) => a.errorType.localeCompare(b.errorType)),
    sites: sites.map((siteName, i) => ({ siteName, uid: siteName.toLowerCase().replace(/[^a-z0-9]+/g, '-'), id: `s${i}` })),
    configs,
    *tables() {
      for (const [table, rows] of NETWORK_TABLES) yield { table, rows: paced(objectValues(table, rows(network))) }
    },
  }
}
