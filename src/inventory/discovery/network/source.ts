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
import { STP_BRIDGES } from '../../catalog/vlans.js'
import { BGP_NEIGHBORS, OSPF_NEIGHBORS, ROUTES } from '../../catalog/routing.js'
import { FANS, MODULES, POWER_SUPPLIES } from '../../catalog/environment.js'
import { PORT_CHANNEL_MEMBERS } from '../../catalog/interface-health.js'
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
import { deviceRows } from './rows/devices.js'
import { hostRows } from './rows/hosts.js'
import { interfaceRows } from './rows/interfaces.js'
import { macRows, vlanRows } from './rows/layer2.js'
import { arpRows, routeRows } from './rows/layer3.js'
import { managedDevRows } from './rows/managed.js'
import { neighborRows } from './rows/neighbors.js'
import { partRows } from './rows/parts.js'
import { siteRows } from './rows/sites.js'
import { ospfRows } from './rows/ospf.js'
import { portChannelRows } from './rows/port-channels.js'
import { switchportRows } from './rows/switchports.js'
import { stpRows } from './rows/stp.js'
import { fanRows, moduleRows, powerSupplyRows } from './rows/environment.js'

/** Each table a MIB fills and the module that maps the collected data to its rows. */
export const NETWORK_TABLES: ReadonlyArray<readonly [StoredTableDef, (net: Network) => Iterable<Row>]> = [
  [SITES, siteRows],
  [DEVICES, deviceRows],
  [INTERFACES, interfaceRows],
  [PART_NUMBERS, partRows],
  [ARP, arpRows],
  [MAC, macRows],
  [MANAGED_DEVS, managedDevRows],
  [HOSTS, hostRows],
  [ROUTES, routeRows],
  [VLANS, vlanRows],
  [NEIGHBORS, neighborRows],
  [BGP_NEIGHBORS, bgpRows],
  [OSPF_NEIGHBORS, ospfRows],
  [FANS, fanRows],
  [POWER_SUPPLIES, powerSupplyRows],
  [MODULES, moduleRows],
  [PORT_CHANNEL_MEMBERS, portChannelRows],
  [SWITCHPORTS, switchportRows],
  [STP_BRIDGES, stpRows],
  [CONNECTIVITY, connectivityRows],
]


export interface NetworkCollection {
  network: Network
  /** Every table's rows, table by table, for the loader. */
  tables(): Generator<TableRows>
  /** Failures by type (addresses that did not answer, MIB groups that failed). */
  errors: Array<{ errorType: string; count: number }>
  sites: Array<{ siteName: string; uid: string; id: string }>
}

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
  const sites = [...new Set(network.devices.map((d) => d.siteName))].sort()
  return {
    network,
    errors: [...counts].map(([errorType, n]) => ({ errorType, count: n })).sort((a, b) => a.errorType.localeCompare(b.errorType)),
    sites: sites.map((siteName, i) => ({ siteName, uid: siteName.toLowerCase().replace(/[^a-z0-9]+/g, '-'), id: `s${i}` })),
    *tables() {
      for (const [table, rows] of NETWORK_TABLES) yield { table, rows: paced(objectValues(table, rows(network))) }
    },
  }
}
