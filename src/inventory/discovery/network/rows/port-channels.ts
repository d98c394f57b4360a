/**
 * Rows of interfaces/port-channel/member-status: every port-channel (an interface of type
 * ieee8023adLag, or an aggregator LACP ports name) with its members, from IEEE8023-LAG-MIB
 * (ports attached to or selecting the aggregator, their LACP state) and ifStackTable (the
 * interfaces the port-channel runs on, which also covers static channels).
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import type { LagPort } from '../model.js'

/** IANAifType ieee8023adLag. */
const IF_TYPE_LAG = 161

type MemberState = 'bundled' | 'standby' | 'suspended' | 'down'

/**
 * down: the member is not operationally up; bundled: attached to the aggregator and collecting
 * and distributing (or, without LACP, up and stacked under it); standby: LACP selected the
 * aggregator but did not attach the port (more ports than the channel takes); suspended:
 * attached but not passing traffic (no LACP partner in sync).
 */
function memberState(dev: Device, ifIndex: number, channel: number, lag: LagPort | undefined): MemberState {
  if (dev.ifByIndex.get(ifIndex)?.oper !== 'up') return 'down'
  if (!lag) return 'bundled'
  if (lag.attached === channel) return !lag.lacp || (lag.lacp.collecting && lag.lacp.distributing) ? 'bundled' : 'suspended'
  return lag.selected === channel ? 'standby' : 'suspended'
}

export function* portChannelRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const { ports, stack } = dev.d.lag
    const lagOf = new Map(ports.map((p) => [p.ifIndex, p]))
    const channels = new Set<number>()
    for (const [index, i] of dev.ifByIndex) if (i.type === IF_TYPE_LAG) channels.add(index)
    for (const p of ports) for (const agg of [p.attached, p.selected]) if (agg !== null && agg !== p.ifIndex && dev.ifByIndex.has(agg)) channels.add(agg)
    for (const channel of [...channels].sort((a, b) => a - b)) {
      const memberIndexes = new Set<number>()
      for (const p of ports) if (p.ifIndex !== channel && (p.attached === channel || p.selected === channel)) memberIndexes.add(p.ifIndex)
      for (const s of stack) if (s.higher === channel && s.lower !== channel) memberIndexes.add(s.lower)
      const members = [...memberIndexes]
        .flatMap((index) => {
          const name = ifName(dev, index)
          return name === null ? [] : [{ intName: shortName(name), state: memberState(dev, index, channel, lagOf.get(index)) }]
        })
        .sort((a, b) => a.intName.localeCompare(b.intName, 'en', { numeric: true }))
      const name = ifName(dev, channel)!
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${channel}`,
        intName: shortName(name),
        dscr: dev.ifByIndex.get(channel)?.alias ?? null,
        // the LACP table lists LACP ports only; static and PAgP channels are not told apart by a standard MIB
        protocol: [...memberIndexes].some((i) => lagOf.has(i)) ? 'lacp' : null,
        members,
        memberCount: members.length,
        bundledCount: members.filter((m) => m.state === 'bundled').length,
      }
    }
  }
}
