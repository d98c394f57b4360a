/** Stage 4a: the client address (trusted-proxy aware) and its rate-limit key. */
import type { Socket } from 'node:net'
import type { Config } from '../../shared/config/index.js'
import { clientKey, normalizeIp, resolveClientIp, trustedProxies, type TrustedProxies } from '../client-ip.js'
import type { RequestContext } from '../context.js'
import type { Stage } from './runner.js'

/** What a connection's peer address yields, worked out once per connection and trusted list. */
interface Peer {
  trusted: TrustedProxies
  ip: string
  isTrusted: boolean
  /** The client key of the peer itself (used unless the peer is a trusted proxy). */
  key: string
}

/** By connection (a symbol property on sockets, whose shapes vary, was a lookup through the runtime). */
const peers = new WeakMap<Socket, Peer>()

export function clientIpStage(deps: { config(): Readonly<Config> }): Stage<RequestContext> {
  // Compiled once per configuration (the list may change on reload).
  let compiledFor: readonly string[] | null = null
  let trusted: TrustedProxies = trustedProxies([])
  return {
    name: 'clientIp',
    run(ctx) {
      const list = deps.config().server.trustedProxies
      if (list !== compiledFor) {
        trusted = trustedProxies(list)
        compiledFor = list
      }
      // Keep-alive connections carry many requests from one peer: its address is looked at once.
      const socket = ctx.req.socket
      let peer = peers.get(socket)
      if (peer === undefined || peer.trusted !== trusted) {
        const ip = normalizeIp(socket.remoteAddress ?? '')
        peer = { trusted, ip, isTrusted: trusted.has(ip), key: clientKey(ip) }
        peers.set(socket, peer)
      }
      ctx.peerIp = peer.ip
      ctx.peerTrusted = peer.isTrusted
      if (!peer.isTrusted) {
        ctx.clientIp = peer.ip
        ctx.clientKey = peer.key
        return
      }
      const ip = resolveClientIp(peer.ip, ctx.req.headers['x-forwarded-for'], trusted)
      ctx.clientIp = ip
      ctx.clientKey = clientKey(ip)
    },
  }
}
