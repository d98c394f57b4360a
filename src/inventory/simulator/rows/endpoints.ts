/**
 * Rows of what CDP/LLDP shows beyond discovered devices: neighbors/unmanaged (the provider edge
 * router on each WAN circuit, the partner switch on each hand-off port), neighbors/endpoints (IP
 * phones, cameras and printers, which announce themselves) and inventory/phones. Every end point
 * is a host of addressing/hosts on the same port.
 */
import { ipString } from '../prng.js'
import type { SimDevice, SimNetwork } from '../network.js'
import type { SimHost, SiteModel } from '../model.js'
import { providerAs } from './layer3.js'
import { deviceFields, type Row } from './common.js'

/** Host types that announce themselves through CDP/LLDP, with the platform they advertise. */
const ANNOUNCED: Readonly<Record<string, (h: SimHost) => { platform: string; capabilities: string[] }>> = {
  phone: (h) => ({ platform: h.vendor === 'Polycom' ? 'Polycom VVX 450' : 'Cisco IP Phone 8845', capabilities: ['telephone', 'bridge'] }),
  camera: () => ({ platform: 'AXIS P3245-V Network Camera', capabilities: ['station'] }),
  printer: () => ({ platform: 'HP LaserJet Enterprise M507', capabilities: ['station'] }),
}

const hex = (mac: string) => mac.replace(/:/g, '').toUpperCase()

/** CDP between Cisco devices, LLDP otherwise. */
const protocolBetween = (dev: SimDevice, ciscoPeer: boolean) => (dev.platform.vendor === 'cisco' && ciscoPeer ? 'cdp' : 'lldp')

function phoneName(h: SimHost): string {
  return h.vendor === 'Polycom' ? `Polycom-${hex(h.mac)}` : `SEP${hex(h.mac)}`
}

function endpointName(h: SimHost, domain: string): string {
  return h.type === 'phone' ? phoneName(h) : `${h.type}-${ipString(h.ip).split('.').slice(2).join('-')}.${domain}`
}

export function* endpointRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const h of model.hosts) {
    const announced = ANNOUNCED[h.type]?.(h)
    if (!announced) continue
    const sw = h.port.dev
    const remoteName = endpointName(h, model.site.domain)
    yield {
      id: `${sw.sn}/${h.port.name}/${remoteName}`,
      localSn: sw.sn,
      localHost: sw.hostname,
      localInt: h.port.name,
      siteName: sw.site.name,
      remoteName,
      remoteInt: h.type === 'phone' ? 'Port 1' : 'eth0',
      remoteIp: ipString(h.ip),
      remotePlatform: announced.platform,
      protocol: protocolBetween(sw, h.vendor.startsWith('Cisco')),
      capabilities: announced.capabilities,
    }
  }
}

export function* phoneRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const h of model.hosts) {
    if (h.type !== 'phone') continue
    const sw = h.port.dev
    yield {
      id: `${sw.sn}/${h.port.name}`,
      ...deviceFields(sw),
      intName: h.port.name,
      name: phoneName(h),
      model: ANNOUNCED.phone!(h).platform,
      ip: ipString(h.ip),
      mac: h.mac,
      vendor: h.vendor,
      voiceVlan: h.port.voiceVlan,
      protocol: protocolBetween(sw, h.vendor.startsWith('Cisco')),
    }
  }
}

export function* unmanagedRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    const wan = model.wan.get(dev)
    if (!wan) continue
    const base = { localSn: dev.sn, localHost: dev.hostname, siteName: dev.site.name }
    const asn = providerAs(dev)
    const pe = `pe-${ipString(wan.peIp).replace(/\./g, '-')}.as${asn}.example.net`
    yield {
      ...base,
      id: `${dev.sn}/${wan.port.name}/${pe}`,
      localInt: wan.port.name,
      remoteName: pe,
      remoteInt: `xe-0/1/${wan.peIp % 8}`,
      remoteIp: ipString(wan.peIp),
      remotePlatform: 'Juniper Networks MX480',
      protocol: 'lldp',
      capabilities: ['router'],
    }
    const handoff = model.interfaces.get(dev)!.find((i) => i.kind === 'port' && i.dscr === 'partner handoffs')
    if (!handoff) continue
    const partner = `partner-${dev.site.code}-sw${dev.ordinal}`
    yield {
      ...base,
      id: `${dev.sn}/${handoff.name}/${partner}`,
      localInt: handoff.name,
      remoteName: partner,
      remoteInt: 'GigabitEthernet1/0/48',
      remoteIp: null,
      remotePlatform: 'cisco WS-C3850-24T',
      protocol: protocolBetween(dev, true),
      capabilities: ['bridge', 'router'],
    }
  }
}
