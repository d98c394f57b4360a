/**
 * The top of the command line: `netinv <command> [words]` against the command table, with its
 * input and output in `io` (src/commands/io.ts). src/cli.ts runs it on the process; tests run it
 * in their own process with their own streams and environment.
 */
import { commands } from './index.js'
import { didYouMean, reportUsageError, runCommand, UsageError } from './args.js'
import { renderTopHelp } from './help.js'
import type { CommandIo } from './io.js'
import { RELEASE_VERSION } from '../shared/product.js'

/**
 * Runs the words after `netinv`; returns the exit status (-1: a server runs on until a signal).
 * An unexpected error is thrown (see reportCrash).
 */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === 'help' && rest[0] !== undefined && Object.hasOwn(commands, rest[0])) return runCommand(rest[0], commands[rest[0]]!, ['--help'], io)
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(renderTopHelp(commands))
    return 0
  }
  if (name === '--version') {
    io.stdout.write(`netinv ${RELEASE_VERSION}\n`)
    return 0
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`
    const known = name.startsWith('-') ? ['--help', '--version'] : Object.keys(commands)
    return reportUsageError(new UsageError(`${what}${didYouMean(name, known)}`), io.stderr)
  }
  return runCommand(name, command, rest, io)
}

/** An error no command reported (e.g. a port already taken): its message on stderr; exit status 1. */
export function reportCrash(err: unknown, stderr: NodeJS.WritableStream): number {
  stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  return 1
}
