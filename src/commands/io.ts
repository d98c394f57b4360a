/**
 * What a command reads and writes: its environment, stdin, stdout, stderr and Ctrl-C. src/cli.ts
 * gives the process's own; a caller in the same process (a test) gives its own streams and
 * environment and gets the exit status back, so that a command never reaches for the process's
 * globals. The servers (serve, gateway, inventory) remain the process's: they log on its stdout
 * and stop on its signals.
 */

export interface InputStream extends NodeJS.ReadableStream {
  isTTY?: boolean
  setRawMode?(mode: boolean): unknown
}

export interface OutputStream extends NodeJS.WritableStream {
  isTTY?: boolean
  columns?: number
  /** Set by a stream that wants the writer to wait for 'drain'. */
  readonly writableNeedDrain?: boolean
}

export interface CommandIo {
  env: NodeJS.ProcessEnv
  stdin: InputStream
  stdout: OutputStream
  stderr: OutputStream
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt(handler: () => void): () => void
}

/** The process's environment, standard streams and SIGINT. */
export function processIo(): CommandIo {
  return {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    onInterrupt(handler) {
      process.once('SIGINT', handler)
      return () => process.off('SIGINT', handler)
    },
  }
}
