/**
 * `netinv api-versions [--without-inventory]`: prints docs/api-versions.md for the route table of
 * CONFIG_DIR (the built-in table, api.json `upstreams` and the route files), as the gateway would
 * load it; a bad route file or upstream fails with the same message the gateway would log.
 */
import { tableOfConfigDir, renderApiVersions } from '../gateway/api-versions-doc.js'
import { readEnv } from '../shared/env.js'
import type { Command } from './index.js'

export const apiVersionsCommand: Command = {
  summary: "print the API versions document of CONFIG_DIR's route table (--without-inventory: a gateway without netinv's inventory)",
  async run(args) {
    const unknown = args.filter((a) => a !== '--without-inventory')
    if (unknown.length > 0) {
      console.error(`netinv api-versions: unknown argument ${unknown[0]}`)
      return 2
    }
    const { config, table } = tableOfConfigDir(readEnv().configDir, !args.includes('--without-inventory'))
    process.stdout.write(renderApiVersions(table, config))
    return 0
  },
}
