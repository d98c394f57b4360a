/** Stage 4a: the client address (trusted-proxy aware) and its rate-limit key. */
import type { Config } from '../../shared/config/index.js'
import { clientKey, resolveClientIp, trustedProxies, type TrustedProxies } from '../client-ip.js'
import type { RequestContext } from '../context.js'
import type { Stage } from './runner.js'

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
      const peer = ctx.req.socket.remoteAddress ?? ''
      const ip = resolveClientIp(peer, ctx.req.headers['x-forwarded-for'], trusted)
      ctx.peerTrusted = trusted.has(peer)
      ctx.clientIp = ip
      ctx.clientKey = clientKey(ip)
    },
  }
}
