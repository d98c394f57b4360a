/** Rows of routing/protocols/bgp/neighbors: BGP4-MIB bgpPeerTable. */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'

export function* bgpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const p of dev.d.bgp.peers) {
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}//${p.remoteAddress}`,
        vrf: '',
        localAs: dev.d.bgp.localAs,
        localAddress: p.localAddress,
        neiHostname: net.byAddress.get(p.remoteAddress)?.hostname ?? null,
        neiAddress: p.remoteAddress,
        neiAs: p.remoteAs,
        state: p.state,
        // bgpPeerFsmEstablishedTime counts the time in the established state while in it
        currStateTime: p.state === 'established' ? p.establishedTime : null,
        totalReceivedPrefixes: null,
      }
    }
  }
}
