#!/usr/bin/env -S node --no-memory-reducer
/**
 * The one command line of the product (`netinv --help` lists every command, `netinv <command>
 * --help` explains one; docs/cli.md is generated from the same declarations).
 *
 *   servers      serve, gateway, inventory, migrate
 *   admin        user, apikey, docs, api-versions, lab (on this machine's database or files)
 *   client       login, logout, snapshots, discover, query, diff (over the HTTP API at NETINV_URL)
 *
 * This file is the process around src/commands/main.ts: its arguments, streams, environment and
 * signals in, its exit status out.
 */
import { processIo } from './commands/io.js'
import { reportCrash, runCli } from './commands/main.js'

// `netinv query ... | head`: a reader that has seen enough is not an error
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err
  process.exit(process.exitCode ?? 0)
})

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    if (code !== -1) process.exitCode = code
  },
  (err: unknown) => {
    // A failed start (e.g. the port is taken) may leave a database, a listener or a timer open:
    // exit now instead of hanging half-started.
    process.exit(reportCrash(err, process.stderr))
  },
)
