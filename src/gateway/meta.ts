/** The gateway's own public meta endpoints: GET version and GET os/version. */
import type { Config } from '../shared/config/index.js'
import { sendJson } from '../shared/http/index.js'
import { RELEASE_VERSION, advertisedRelease } from '../shared/product.js'
import { handlerKey, type LocalHandler } from './context.js'

export function metaHandlers(config: () => Readonly<Config>): Map<string, LocalHandler> {
  return new Map<string, LocalHandler>([
    [
      handlerKey('GET', 'version'),
      async (ctx) => {
        const { apiVersion } = config().versioning
        sendJson(ctx.res, 200, { apiVersion, releaseVersion: advertisedRelease(apiVersion) })
      },
    ],
    [handlerKey('GET', 'os/version'), async (ctx) => sendJson(ctx.res, 200, { version: RELEASE_VERSION })],
  ])
}
