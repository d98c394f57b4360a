/**
 * Command table of the command line: each command lives in its own module. The servers and the
 * admin helpers work on this machine; login, snapshots, discover, query and diff are clients of
 * the HTTP API (src/client).
 */
import { serveCommand } from './serve.js'
import { inventoryCommand } from './inventory.js'
import { migrateCommand } from './migrate.js'
import { gatewayCommand } from './gateway.js'
import { docsCommand } from './docs.js'
import { userCommand } from './user.js'
import { apikeyCommand } from './apikey.js'
import { auditCommand } from './audit.js'
import { labCommand } from './lab.js'
import { apiVersionsCommand } from './api-versions.js'
import { loginCommand, logoutCommand } from './login.js'
import { snapshotsCommand } from './snapshots.js'
import { discoverCommand } from './discover.js'
import { queryCommand } from './query.js'
import { diffCommand } from './diff.js'
import { pathCommand } from './path.js'
import type { Command } from './args.js'

export type { Command } from './args.js'

export const commands: Record<string, Command> = {
  serve: serveCommand,
  gateway: gatewayCommand,
  inventory: inventoryCommand,
  migrate: migrateCommand,
  docs: docsCommand,
  user: userCommand,
  apikey: apikeyCommand,
  audit: auditCommand,
  lab: labCommand,
  'api-versions': apiVersionsCommand,
  login: loginCommand,
  logout: logoutCommand,
  snapshots: snapshotsCommand,
  discover: discoverCommand,
  query: queryCommand,
  diff: diffCommand,
  path: pathCommand,
}
