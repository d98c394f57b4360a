/**
 * What the client commands (login, snapshots, discover, query, diff) share: `--url`, the client
 * of the API from the environment or the stored login, and errors of the API printed as their
 * message with exit status 1.
 */
import { ClientError, connect, type ApiClient } from '../client/api.js'
import { printable } from '../client/output.js'
import { defineCommand, stringOption, type Command, type CommandSpec, type OptionSpec, type Parsed } from './args.js'
import type { CommandIo } from './io.js'

export const URL_OPTION: Record<'url', OptionSpec> = {
  url: { type: 'string', value: 'url', description: 'address of the API (default: NETINV_URL, else the last login, else http://localhost:8080)' },
}

/** Prints a ClientError (and the validation messages of a 422) on stderr; returns exit status 1. */
export function reportClientError(name: string, err: ClientError, stderr: NodeJS.WritableStream): number {
  // a 422's first message is usually its `message` too: list them only when they add something
  const details = err.details.length === 1 && err.message.startsWith(err.details[0]!) ? [] : err.details
  const lines = [`netinv ${name}: ${err.message}`, ...details.map((d) => `  ${d}`)]
  stderr.write(printable(lines.join('\n')) + '\n')
  return 1
}

/** A command of the client: `--url` added to its options, `run` gets the connected client. */
export function clientCommand(spec: CommandSpec, handler: (p: Parsed, client: ApiClient, io: CommandIo) => Promise<number>, authenticated = true): Command {
  return defineCommand({ ...spec, options: { ...spec.options, ...URL_OPTION } }, async (p, io) => {
    try {
      const client = connect({ url: stringOption(p, 'url'), env: io.env, authenticated })
      return await handler(p, client, io)
    } catch (err) {
      if (err instanceof ClientError) return reportClientError(spec.name, err, io.stderr)
      throw err
    }
  })
}
