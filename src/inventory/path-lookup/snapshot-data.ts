/**
 * What a path lookup reads of one snapshot, one indexed statement per question (a route by
 * longest-prefix match on one device, the ARP entry of one address, the owner of one address,
 * the neighbour on one port...), each answer kept for the rest of the lookup. Nothing reads a
 * whole table, so a lookup costs the same on the "large" profile as on a small one.
 */
import type { Queryable } from '../../shared/db/index.js'
import { containingNetworks, family } from './prefixes.js'
import type { Device, NextHop } from './types.js'

export interface StoredRoute {
  network: string
  prefix: number
  protocol: string | null
  vrf: string
  nexthop: NextHop[]
}

export interface Address {
  device: Device
  intName: string | null
  vrf: string
  net: string | null
}

export interface HostRow {
  ip: string
  mac: string | null
  vrf: string
  siteName: string | null
  gateways: Array<{ sn: string; hostname: string; intName: string | null; ip: string | null }>
  edges: Array<{ sn: string; hostname: string; intName: string | null }>
}

export interface ArpRow {
  device: Device
  ip: string
  mac: string
  intName: string | null
}

export interface NeighborRow {
  remoteSn: string
  remoteInt: string | null
}

export interface MacRow {
  intName: string
  vlan: number | null
}

const DEVICE_COLUMNS = 'sn, hostname, site_name AS "siteName"'

export class SnapshotData {
  private readonly cache = new Map<string, Promise<unknown>>()
  /** Statements run so far (the benchmark and the tests read it). */
  statements = 0

  constructor(
    private readonly db: Queryable,
    readonly snapshot: string,
  ) {}

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined
    if (!p) {
      p = load()
      this.cache.set(key, p)
    }
    return p
  }

  private async rows<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    this.statements++
    return (await this.db.query<T>(sql, [this.snapshot, ...params])).rows
  }

  /** A discovered device by serial number (its type for the graph), null when the snapshot has none. */
  device(sn: string): Promise<Device | null> {
    return this.once(`dev:${sn}`, async () => {
      const r = await this.rows<Device>(`SELECT ${DEVICE_COLUMNS}, dev_type AS "devType" FROM inventory.devices WHERE snapshot_id = $1 AND sn = $2 LIMIT 1`, [sn])
      return r[0] ?? null
    })
  }

  /** The most specific route of a device's VRF that contains `ip` (in the routing table of the address's family). */
  route(sn: string, vrf: string, ip: string): Promise<StoredRoute | null> {
    return this.once(`route:${sn}:${vrf}:${ip}`, async () => {
      const table = family(ip) === 6 ? 'inventory.ipv6_routes' : 'inventory.routes'
      const r = await this.rows<StoredRoute>(
        `SELECT network::text AS network, prefix::int AS prefix, protocol, coalesce(vrf, '') AS vrf, coalesce(nexthop, '[]'::jsonb) AS nexthop
         FROM ${table} WHERE snapshot_id = $1 AND network = ANY($2::cidr[]) AND sn = $3 AND coalesce(vrf, '') = $4
         ORDER BY masklen(network) DESC LIMIT 1`,
        [containingNetworks(ip), sn, vrf],
      )
      return r[0] ?? null
    })
  }

  /** Interfaces of discovered devices that hold the address (usually one). */
  owners(ip: string): Promise<Address[]> {
    return this.once(`own:${ip}`, async () => {
      const r = await this.rows<{ sn: string; hostname: string; siteName: string | null; intName: string | null; vrf: string; net: string | null }>(
        `SELECT ${DEVICE_COLUMNS}, int_name AS "intName", coalesce(vrf, '') AS vrf, net::text AS net FROM inventory.managed_devs WHERE snapshot_id = $1 AND ip = $2::inet ORDER BY sn, int_name`,
        [ip],
      )
      return r.map((x) => ({ device: { sn: x.sn, hostname: x.hostname, siteName: x.siteName, devType: null }, intName: x.intName, vrf: x.vrf, net: x.net }))
    })
  }

  /** Interfaces of discovered devices whose network contains the address (the routers a host would be attached to); host routes (/32, /128) attach nothing. */
  attached(ip: string): Promise<Address[]> {
    return this.once(`att:${ip}`, async () => {
      const r = await this.rows<{ sn: string; hostname: string; siteName: string | null; intName: string | null; vrf: string; net: string | null }>(
        `SELECT ${DEVICE_COLUMNS}, int_name AS "intName", coalesce(vrf, '') AS vrf, net::text AS net FROM inventory.managed_devs
         WHERE snapshot_id = $1 AND net = ANY($2::cidr[]) AND masklen(net) < $3 ORDER BY masklen(net) DESC, sn, int_name`,
        [containingNetworks(ip), family(ip) === 6 ? 128 : 32],
      )
      return r.map((x) => ({ device: { sn: x.sn, hostname: x.hostname, siteName: x.siteName, devType: null }, intName: x.intName, vrf: x.vrf, net: x.net }))
    })
  }

  /** The MAC address of the device's interface holding the address. */
  interfaceMac(sn: string, ip: string): Promise<string | null> {
    return this.once(`ifmac:${sn}:${ip}`, async () => {
      const r = await this.rows<{ mac: string | null }>(`SELECT mac FROM inventory.managed_devs WHERE snapshot_id = $1 AND ip = $2::inet AND sn = $3 LIMIT 1`, [ip, sn])
      return r[0]?.mac ?? null
    })
  }

  /** The end host of an address: a row of addressing/hosts (IPv4) or addressing/ipv6-hosts (IPv6), of the first VRF by name. */
  host(ip: string): Promise<HostRow | null> {
    const [table, column] = family(ip) === 6 ? ['inventory.ipv6_hosts', 'ipv6'] : ['inventory.hosts', 'ip']
    return this.once(`host:${ip}`, async () => {
      const r = await this.rows<HostRow>(
        `SELECT host(${column}) AS ip, mac, coalesce(vrf, '') AS vrf, site_name AS "siteName", coalesce(gateways, '[]'::jsonb) AS gateways, coalesce(edges, '[]'::jsonb) AS edges
         FROM ${table} WHERE snapshot_id = $1 AND ${column} = $2::inet ORDER BY vrf LIMIT 1`,
        [ip],
      )
      return r[0] ?? null
    })
  }

  /** The interfaces ("sn|intName") of the given devices on which a first-hop redundancy group of theirs is active (VRRP master): where a host's gateway address lives. */
  activeRedundancy(sns: readonly string[]): Promise<Set<string>> {
    const key = [...new Set(sns)].sort()
    return this.once(`fhrp:${key.join(',')}`, async () => {
      const r = await this.rows<{ sn: string; intName: string }>(
        `SELECT DISTINCT sn, int_name AS "intName" FROM inventory.fhrp_groups WHERE snapshot_id = $1 AND sn = ANY($2::text[]) AND state = 'active' AND int_name IS NOT NULL`,
        [key],
      )
      return new Set(r.map((x) => `${x.sn}|${x.intName}`))
    })
  }

  /** A device's ARP entry for an address. */
  arp(sn: string, ip: string): Promise<ArpRow | null> {
    return this.once(`arp:${sn}:${ip}`, async () => {
      const r = await this.rows<ArpRow & { sn: string; hostname: string; siteName: string | null }>(
        `SELECT ${DEVICE_COLUMNS}, host(ip) AS ip, mac, int_name AS "intName" FROM inventory.arp WHERE snapshot_id = $1 AND ip = $2::inet AND sn = $3 LIMIT 1`,
        [ip, sn],
      )
      const x = r[0]
      return x ? { device: { sn: x.sn, hostname: x.hostname, siteName: x.siteName, devType: null }, ip: x.ip, mac: x.mac, intName: x.intName } : null
    })
  }

  /** Every device's ARP entries of an address (where a source that is no known host enters). */
  arpAnywhere(ip: string): Promise<ArpRow[]> {
    return this.once(`arp*:${ip}`, async () => {
      const r = await this.rows<{ sn: string; hostname: string; siteName: string | null; ip: string; mac: string; intName: string | null }>(
        `SELECT ${DEVICE_COLUMNS}, host(ip) AS ip, mac, int_name AS "intName" FROM inventory.arp WHERE snapshot_id = $1 AND ip = $2::inet ORDER BY sn`,
        [ip],
      )
      return r.map((x) => ({ device: { sn: x.sn, hostname: x.hostname, siteName: x.siteName, devType: null }, ip: x.ip, mac: x.mac, intName: x.intName }))
    })
  }

  /** The discovered device on the other end of a port (CDP/LLDP). */
  neighbor(sn: string, intName: string): Promise<NeighborRow | null> {
    return this.once(`nei:${sn}:${intName}`, async () => {
      const r = await this.rows<NeighborRow>(
        `SELECT remote_sn AS "remoteSn", remote_int AS "remoteInt" FROM inventory.neighbors WHERE snapshot_id = $1 AND local_sn = $2 AND local_int = $3 AND remote_sn IS NOT NULL ORDER BY remote_sn LIMIT 1`,
        [sn, intName],
      )
      return r[0] ?? null
    })
  }

  /** The name of a neighbour on a port that discovery saw but did not discover. */
  unmanaged(sn: string, intName: string): Promise<string | null> {
    return this.once(`unm:${sn}:${intName}`, async () => {
      const r = await this.rows<{ name: string | null }>(
        `SELECT coalesce(remote_name, host(remote_ip), '') AS name FROM inventory.neighbors_unmanaged WHERE snapshot_id = $1 AND local_sn = $2 AND local_int = $3 ORDER BY remote_name LIMIT 1`,
        [sn, intName],
      )
      return r[0]?.name ?? null
    })
  }

  /** A switch's MAC table entry of an address (written in colon or in dotted form: snapshot files may hold either). */
  mac(sn: string, mac: string): Promise<MacRow | null> {
    return this.once(`mac:${sn}:${mac}`, async () => {
      const r = await this.rows<MacRow>(
        `SELECT int_name AS "intName", vlan::int AS vlan FROM inventory.mac WHERE snapshot_id = $1 AND mac IN ($2, $4) AND sn = $3 AND int_name IS NOT NULL ORDER BY vlan LIMIT 1`,
        [mac, sn, otherMacForm(mac)],
      )
      return r[0] ?? null
    })
  }
}

/** The same MAC address in the other common form: colon (aa:bb:cc:dd:ee:ff) ↔ dotted (aabb.ccdd.eeff). */
function otherMacForm(mac: string): string {
  const hex = mac.toLowerCase().replace(/[.:-]/g, '')
  if (!/^[0-9a-f]{12}$/.test(hex)) return mac
  return mac.includes(':') ? hex.match(/..../g)!.join('.') : hex.match(/../g)!.join(':')
}
