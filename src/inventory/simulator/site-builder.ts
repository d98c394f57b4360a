/**
 * Collects the interfaces of a site's devices while the site model is built: adds them with the
 * defaults of their kind, finds them by name, and connects two of them as a link.
 */
import type { PortName } from './naming.js'
import type { SimDevice } from './network.js'
import { macString } from './prng.js'
import type { SimInterface } from './model.js'

function transceiverFor(speed: number | null): string | null {
  if (speed === null) return null
  if (speed >= 100e9) return 'QSFP-100G-SR4'
  if (speed >= 25e9) return 'SFP-25G-SR-S'
  if (speed >= 10e9) return 'SFP-10G-SR'
  return null
}

export class SiteBuilder {
  readonly interfaces = new Map<SimDevice, SimInterface[]>()
  private readonly byName = new Map<SimDevice, Map<string, SimInterface>>()

  add(dev: SimDevice, kind: SimInterface['kind'], pn: PortName, extra: Partial<SimInterface> = {}): SimInterface {
    const list = this.interfaces.get(dev) ?? []
    const speed = kind === 'port' ? dev.platform.portSpeed : kind === 'uplink' ? dev.platform.uplinkSpeed : kind === 'mgmt' ? 1e9 : null
    const virtual = kind === 'loopback' || kind === 'svi' || kind === 'lag'
    const intf: SimInterface = {
      dev,
      slot: list.length,
      name: pn.name,
      original: pn.original,
      kind,
      l1: virtual || kind === 'radio' ? 'up' : 'down',
      l2: virtual || kind === 'radio' ? 'up' : 'down',
      reason: virtual || kind === 'radio' ? null : 'not-connected',
      errDisabled: null,
      speedValue: speed,
      duplex: speed === null ? null : 'auto',
      media: virtual ? 'virtual' : kind === 'radio' ? 'radio' : speed !== null && speed >= 10e9 ? 'fiber' : 'copper',
      mtu: kind === 'loopback' ? 1514 : dev.role === 'dist' && kind !== 'mgmt' ? 9216 : 1500,
      mac: macString(dev.platform.oui, (dev.index * 1024 + list.length) & 0xffffff),
      ip: null,
      prefix: null,
      vrf: kind === 'mgmt' ? 'mgmt' : '',
      vlan: null,
      mode: null,
      accVlan: null,
      voiceVlan: null,
      transceiver: null,
      dscr: null,
      peer: null,
      lag: null,
      host: null,
      ...extra,
    }
    list.push(intf)
    this.interfaces.set(dev, list)
    let names = this.byName.get(dev)
    if (!names) this.byName.set(dev, (names = new Map()))
    names.set(intf.name, intf)
    return intf
  }

  get(dev: SimDevice, pn: PortName): SimInterface {
    const intf = this.byName.get(dev)?.get(pn.name)
    if (!intf) throw new Error(`no interface ${pn.name} on ${dev.hostname}`)
    return intf
  }

  static up(intf: SimInterface): void {
    intf.l1 = 'up'
    intf.l2 = 'up'
    intf.reason = null
    if (intf.duplex !== null) intf.duplex = 'full'
  }

  /** Connects two discovered interfaces; `net` gives them a /30 (lower end first). */
  link(a: SimInterface, b: SimInterface, net: number | null, mode: 'trunk' | null = null): void {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      SiteBuilder.up(x)
      x.peer = y
      x.dscr = `to ${y.dev.hostname} ${y.name}`
      x.mode = mode
      if (x.media === 'fiber') x.transceiver = transceiverFor(x.speedValue)
    }
    if (net !== null) {
      a.ip = net + 1
      b.ip = net + 2
      a.prefix = b.prefix = 30
    }
  }
}

