#!/usr/bin/env -S node --no-memory-reducer
/**
 * The one command line of the product.
 *
 *   netinv serve        gateway + inventory in one process (the embedded default)
 *   netinv gateway      the gateway alone (INVENTORY_URL and/or api.json upstreams; DATABASE_URL)
 *   netinv inventory    the inventory alone (needs INTERNAL_SECRET, DATABASE_URL)
 *   netinv migrate      apply database migrations and exit
 *   netinv docs         regenerate the generated documentation
 *   netinv api-versions print the API versions document of CONFIG_DIR's route table
 *   netinv user create <username> [--scopes read,write] [--admin]
 *   netinv user passwd <username>
 *   netinv apikey create <username> [--scopes read] [--description text] [--expires-days N]
 *   netinv lab up|down|clean [--prefix nilab] [--routers N]   a lab of real routers to discover
 */
import { commands } from './commands/index.js'

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  const command = name ? commands[name] : undefined
  if (!command) {
    const list = Object.entries(commands)
      .map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`)
      .join('\n')
    console.error(`usage: netinv <command> [args]\n\ncommands:\n${list}`)
    return name ? 2 : 0
  }
  return command.run(rest)
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined && code !== -1) process.exitCode = code
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err))
    // A failed start (e.g. the port is taken) may leave a database, a listener or a timer open:
    // exit now instead of hanging half-started.
    process.exit(1)
  },
)
