/**
 * Logging: pino with a fixed redaction list as the backstop. Request logs list their fields on
 * purpose (see the access log) and never dump headers or bodies.
 */
import { pino, type Logger, type DestinationStream } from 'pino'

export type { Logger }

/** Paths that must never reach a log line, whatever a caller passes in. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'newPassword',
  '*.newPassword',
  'refreshToken',
  '*.refreshToken',
  'accessToken',
  '*.accessToken',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'community',
  '*.community',
  'authPassword',
  '*.authPassword',
  'privPassword',
  '*.privPassword',
  'authorization',
  '*.authorization',
  'cookie',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-token"]',
  'headers["x-netinv-internal"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-token"]',
  'req.headers["x-netinv-internal"]',
] as const

/** The stdout destinations of the loggers made here (sonic-boom streams). */
interface Output {
  flush(cb: (err?: Error | null) => void): void
  flushSync(): void
  write(chunk: string): boolean
  end(): void
}
const outputs = new Set<Output>()

/**
 * Before the process exits: lets stdout take what is buffered for up to `timeoutMs`, then stops
 * writing to it. pino flushes its destination synchronously at exit, and that flush retries a
 * write that fails every 100 ms for ever (a pipe whose reader stalled, then went away, answers
 * EPIPE): a process whose log reader is gone would never exit. What stdout did not take by then
 * is lost; the process exits.
 */
export async function releaseLogOutput(timeoutMs: number): Promise<void> {
  await Promise.all(
    [...outputs].map(
      (out) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs)
          try {
            out.flush(() => {
              clearTimeout(timer)
              resolve()
            })
          } catch {
            clearTimeout(timer)
            resolve()
          }
        }),
    ),
  )
  for (const out of outputs) {
    const noop = () => {}
    out.flushSync = noop
    out.end = noop
    out.write = () => true
  }
}

export function createLogger(options: { level?: string; name?: string; stream?: DestinationStream } = {}): Logger {
  let stream = options.stream
  if (stream === undefined) {
    const out = pino.destination({ dest: 1, sync: false })
    outputs.add(out as unknown as Output)
    stream = out
  }
  return pino(
    {
      level: options.level ?? 'info',
      base: options.name ? { service: options.name } : {},
      redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  )
}

/** A logger that writes nothing (tests that do not inspect logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
