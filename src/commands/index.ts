/** Command table of the command line: each command lives in its own module. */
import { serveCommand } from './serve.js'
import { inventoryCommand } from './inventory.js'
import { migrateCommand } from './migrate.js'
import { gatewayCommand } from './gateway.js'
import { docsCommand } from './docs.js'
import { userCommand } from './user.js'
import { apikeyCommand } from './apikey.js'
import { labCommand } from './lab.js'
import { apiVersionsCommand } from './api-versions.js'

export interface Command {
  summary: string
  /** Returns an exit code, or -1 for a long-running server that exits on a signal. */
  run(args: string[]): Promise<number>
}

export const commands: Record<string, Command> = {
  serve: serveCommand,
  gateway: gatewayCommand,
  inventory: inventoryCommand,
  migrate: migrateCommand,
  docs: docsCommand,
  user: userCommand,
  apikey: apikeyCommand,
  lab: labCommand,
  'api-versions': apiVersionsCommand,
}
