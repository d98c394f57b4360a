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

export function createLogger(options: { level?: string; name?: string; stream?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: options.name ? { service: options.name } : {},
      redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.stream,
  )
}

/** A logger that writes nothing (tests that do not inspect logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
