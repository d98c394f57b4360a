/** The gateway's own public meta endpoints: GET version and GET os/version. */
import type { Config } from '../shared/config/index.js'
import { sendJson } from '../shared/http/index.js'
import { reportedVersion } from '../shared/product.js'
import { handlerKey, type LocalHandler } from './context.js'

export function metaHandlers(config: () => Readonly<Config>): Map<string, LocalHandler> {
  return new Map<string, LocalHandler>([
    [
      handlerKey('GET', 'version'),
      async (ctx) => {
        // the SDKs' start-up probe: the advertised version, whichever address it came by
        sendJson(ctx.res, 200, reportedVersion('original', config().versioning.apiVersion))
      },
    ],
    // v4-era scripts: the same release GET version reports (src/shared/product.ts reportedVersion)
    [handlerKey('GET', 'os/version'), async (ctx) => sendJson(ctx.res, 200, { version: reportedVersion(ctx.generation ?? 'header', config().versioning.apiVersion).releaseVersion })],
  ])
}
