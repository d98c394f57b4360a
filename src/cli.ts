#!/usr/bin/env -S node --no-memory-reducer
/**
 * The one command line of the product (`netinv --help` lists every command, `netinv <command>
 * --help` explains one; docs/cli.md is generated from the same declarations).
 *
 *   servers      serve, gateway, inventory, migrate
 *   admin        user, apikey, docs, api-versions, lab (on this machine's database or files)
 *   client       login, logout, snapshots, discover, query, diff (over the HTTP API at NETINV_URL)
 */
import { commands } from './commands/index.js'
import { didYouMean, reportUsageError, runCommand, UsageError } from './commands/args.js'
import { renderTopHelp } from './commands/help.js'
import { RELEASE_VERSION } from './shared/product.js'

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === 'help' && rest[0] !== undefined && Object.hasOwn(commands, rest[0])) return runCommand(rest[0], commands[rest[0]]!, ['--help'])
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(renderTopHelp(commands))
    return 0
  }
  if (name === '--version') {
    console.log(`netinv ${RELEASE_VERSION}`)
    return 0
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`
    const known = name.startsWith('-') ? ['--help', '--version'] : Object.keys(commands)
    return reportUsageError(new UsageError(`${what}${didYouMean(name, known)}`))
  }
  return runCommand(name, command, rest)
}

// `netinv query ... | head`: a reader that has seen enough is not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err
  process.exit(process.exitCode ?? 0)
})

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
