/**
 * The built-in network simulator: a deterministic discovery source. `simulate(settings)` yields
 * every stored table's rows as a stream (site by site), ready for COPY, so even the "large"
 * profile never sits in memory; only one batch of site models exists at a time, and a site is
 * modelled when its rows are first read. Some sites can be simulated without the others.
 */
import type { StoredTableDef } from '../catalog/index.js'
import { ARP, HOSTS, MAC, MANAGED_DEVS } from '../catalog/addressing.js'
import { CONFIG_SAVED } from '../catalog/consistency.js'
import { EOF_DETAIL, FANS, MODULES, POWER_SUPPLIES } from '../catalog/environment.js'
import { COUNTERS, PORT_CHANNEL_MEMBERS } from '../catalog/interface-health.js'
import { DEVICES, INTERFACES, PART_NUMBERS, SITES } from '../catalog/inventory.js'
import { NEIGHBORS, SWITCHPORTS, VLANS } from '../catalog/layer2.js'
import { NEIGHBORS_ENDPOINTS, NEIGHBORS_UNMANAGED, PHONES } from '../catalog/neighbors.js'
import { BGP_NEIGHBORS, FHRP_GROUP_STATE, IPV6_ROUTES, OSPF_NEIGHBORS, OSPFV3_NEIGHBORS, ROUTES } from '../catalog/routing.js'
import { STP_BRIDGES, STP_PORTS } from '../catalog/vlans.js'
import { objectValues, type TableRows } from '../storage/index.js'
import { buildNetwork, type SimNetwork, type SimSettings, type SimSite } from './network.js'
import { buildSiteModel } from './site.js'
import type { SiteModel } from './model.js'
import type { Row } from './rows/common.js'
import { configRows } from './rows/config.js'
import { counterRows } from './rows/counters.js'
import { deviceRows, siteRows } from './rows/devices.js'
import { endpointRows, phoneRows, unmanagedRows } from './rows/endpoints.js'
import { interfaceRows, managedDevRows, switchportRows } from './rows/interfaces.js'
import { ipv6RouteRows, ospfv3Rows } from './rows/ipv6.js'
import { macRows, neighborRows, vlanRows } from './rows/layer2.js'
import { arpRows, bgpRows, hostRows, routeRows } from './rows/layer3.js'
import { eofRows, fanRows, moduleRows, partRows, powerSupplyRows } from './rows/parts.js'
import { fhrpRows, ospfRows, portChannelRows, stpRows } from './rows/protocols.js'
import { stpPortRows } from './rows/stp-ports.js'

export { PROFILES, PROFILE_NAMES, isProfileName, type ProfileName } from './profiles.js'
export { buildNetwork, buildNetworkInTurns, siteNames, type SimNetwork, type SimSettings } from './network.js'
export type { Row } from './rows/common.js'

type Generate = (net: SimNetwork, model: SiteModel) => Iterable<Row>

/** Sites modelled at once while streaming (bounded memory, one model per site). */
const SITE_BATCH = 50

/** Each stored table and the generator of its rows, in load order. */
export const GENERATORS: ReadonlyArray<readonly [StoredTableDef, Generate]> = [
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
  [SWITCHPORTS, switchportRows],
  [BGP_NEIGHBORS, bgpRows],
  [FANS, fanRows],
  [POWER_SUPPLIES, powerSupplyRows],
  [MODULES, moduleRows],
  [EOF_DETAIL, eofRows],
  [IPV6_ROUTES, ipv6RouteRows],
  [OSPF_NEIGHBORS, ospfRows],
  [OSPFV3_NEIGHBORS, ospfv3Rows],
  [FHRP_GROUP_STATE, fhrpRows],
  [STP_BRIDGES, stpRows],
  [STP_PORTS, stpPortRows],
  [NEIGHBORS_UNMANAGED, unmanagedRows],
  [NEIGHBORS_ENDPOINTS, endpointRows],
  [PHONES, phoneRows],
  [COUNTERS, counterRows],
  [PORT_CHANNEL_MEMBERS, portChannelRows],
  [CONFIG_SAVED, configRows],
]

/** Rows of one table as objects keyed by API column name. */
export function* tableObjects(net: SimNetwork, generate: Generate): Generator<Row> {
  for (const site of net.sites) yield* generate(net, buildSiteModel(net, site))
}

export interface SimulationSummary {
  sites: Array<{ siteName: string; uid: string; id: string }>
  totalDevCount: number
  deviceAddedCount: number
  deviceRemovedCount: number
}

export interface Simulation {
  network: SimNetwork
  summary: SimulationSummary
  /**
   * Slices of every stored table's rows (values in storage column order), batch by batch (for the
   * loader); `only` keeps the sites it accepts (a site's rows depend on the network's site list,
   * never on the other sites' rows, so they are the same either way).
   */
  tables(only?: (site: SimSite) => boolean): Generator<TableRows>
  /** Number of slices `tables()` yields (for progress). */
  slices: number
}

/** The simulation of a network (`network`: its skeleton, when built beforehand, e.g. in turns). */
export function simulate(settings: SimSettings, network: SimNetwork = buildNetwork(settings)): Simulation {
  const g = settings.generation
  let total = 0
  let added = 0
  let removed = 0
  for (const site of network.sites) {
    for (const dev of site.devices) {
      const now = network.present(dev, g)
      const before = g > 0 && network.present(dev, g - 1)
      if (now) total++
      if (g > 0 && now && !before) added++
      if (g > 0 && !now && before) removed++
    }
  }
  return {
    network,
    summary: {
      sites: network.sites.map((s) => ({ siteName: s.name, uid: s.code, id: `s${s.index}` })),
      totalDevCount: total,
      deviceAddedCount: added,
      deviceRemovedCount: removed,
    },
    slices: Math.ceil(network.sites.length / SITE_BATCH) * GENERATORS.length,
    *tables(only) {
      const sites = only ? network.sites.filter(only) : network.sites
      // every table per batch of sites, so each site is modelled once: when the first table's rows
      // reach it, inside the row stream (whose reader takes turns of the event loop), not all at once
      for (let i = 0; i < sites.length; i += SITE_BATCH) {
        const batch = sites.slice(i, i + SITE_BATCH)
        const models: SiteModel[] = []
        const model = (j: number) => (models[j] ??= buildSiteModel(network, batch[j]!))
        for (const [table, generate] of GENERATORS) {
          yield { table, rows: objectValues(table, (function* () { for (let j = 0; j < batch.length; j++) yield* generate(network, model(j)) })()) }
        }
      }
    },
  }
}
