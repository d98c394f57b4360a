/** The detailed model of one discovered site, which every table's rows are read from. */
import type { SimDevice, SimSite } from './network.js'

export type L1State = 'up' | 'down' | 'admin-down' | 'err-disabled'

export interface SimInterface {
  dev: SimDevice
  /** Position on the device (MAC address suffix). */
  slot: number
  name: string
  original: string
  kind: 'port' | 'uplink' | 'mgmt' | 'loopback' | 'svi' | 'sub' | 'lag' | 'radio'
  l1: L1State
  l2: 'up' | 'down'
  reason: string | null
  errDisabled: string | null
  speedValue: number | null
  duplex: 'full' | 'half' | 'auto' | null
  media: string
  mtu: number
  mac: string
  ip: number | null
  prefix: number | null
  vrf: string
  /** VLAN of an SVI or sub-interface. */
  vlan: number | null
  mode: 'access' | 'trunk' | null
  accVlan: number | null
  voiceVlan: number | null
  transceiver: string | null
  dscr: string | null
  /** The discovered interface at the other end of the link. */
  peer: SimInterface | null
  /** The port-channel the interface is a member of. */
  lag: SimInterface | null
  host: SimHost | null
}

export interface SimHost {
  ip: number
  mac: string
  vlan: number
  type: string
  vendor: string
  user: string | null
  port: SimInterface
  /** The SVI that routes the host's VLAN. */
  gateway: SimInterface
}

export interface SimVlan {
  id: number
  name: string
  /** Subnet of the VLAN (first address), null for VLAN 1. */
  net: number | null
}

export interface SiteModel {
  site: SimSite
  /** Devices that answered this discovery, in site order. */
  devices: SimDevice[]
  interfaces: Map<SimDevice, SimInterface[]>
  hosts: SimHost[]
  vlans: SimVlan[]
  /** Provider edge address per router's WAN interface (not a discovered device). */
  wan: Map<SimDevice, { port: SimInterface; peIp: number }>
  /** Site aggregates reachable over the WAN (other sites of the discovery). */
  remoteAggregates: number[]
}

export const MGMT_VLAN = 99
export const VOICE_VLAN = 100
export const FIRST_DATA_VLAN = 10
