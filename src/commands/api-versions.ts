/**
 * `netinv api-versions [--without-inventory]`: prints docs/api-versions.md for the route table of
 * CONFIG_DIR (the built-in table, api.json `upstreams` and the route files), as the gateway would
 * load it; a bad route file or upstream fails with the same message the gateway would log.
 */
import { tableOfConfigDir, renderApiVersions } from '../gateway/api-versions-doc.js'
import { readEnv } from '../shared/env.js'
import { defineCommand, flag, type Command } from './args.js'

export const apiVersionsCommand: Command = defineCommand(
  {
    name: 'api-versions',
    summary: "print the API versions document of CONFIG_DIR's route table (--without-inventory: a gateway without netinv's inventory)",
    options: { 'without-inventory': { type: 'boolean', description: "the route table of a gateway without netinv's inventory" } },
  },
  async (p, io) => {
    const { config, table } = tableOfConfigDir(readEnv(io.env).configDir, !flag(p, 'without-inventory'))
    io.stdout.write(renderApiVersions(table, config))
    return 0
  },
)
