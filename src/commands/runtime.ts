/** Start-up shared by the commands: environment, config, logger, database. */
import { readEnv, type Env } from '../shared/env.js'
import { loadConfig, type Config } from '../shared/config/index.js'
import { createLogger, releaseLogOutput, type Logger } from '../shared/log.js'
import { openDb, type Db } from '../shared/db/index.js'
import type { PortCheck } from './ports.js'
import { tracedDb } from '../shared/tracing/db.js'
import { startTracing, stopTracing, tracing, tracingSettings, type TracingSettings } from '../shared/tracing/index.js'
import { resolveCredentialKey } from '../inventory/settings/secret-key.js'

export interface Runtime {
  env: Env
  config: Readonly<Config>
  log: Logger
  /** Tracing settings (undefined: tracing off). */
  traces: TracingSettings | undefined
}

/** `source`: the environment the command was given (the process's by default). */
export function loadRuntime(service: string, source: NodeJS.ProcessEnv = process.env): Runtime {
  const env = readEnv(source)
  const traces = tracingSettings(source)
  const log = createLogger({ level: env.logLevel, name: service })
  const { config, warnings } = loadConfig(env.configDir)
  for (const w of warnings) log.warn(w)
  return { env, config, log, traces }
}

/** Turns tracing on when the environment asks for it (before the services start). */
export async function startRuntimeTracing(rt: Runtime): Promise<void> {
  const t = await startTracing(rt.traces)
  if (t !== undefined) rt.log.info({ url: t.settings.url, trustTraceparent: t.settings.trustTraceparent, sampleRatio: t.settings.sampleRatio }, 'tracing on')
}

/** Opens the database; with tracing on (see shared/tracing), every statement gets a span. */
export async function openRuntimeDb(rt: Runtime, poolSize?: number): Promise<Db> {
  const db = await openDb({ databaseUrl: rt.env.databaseUrl, dataDir: rt.env.dataDir, log: rt.log, ...(poolSize ? { poolSize } : {}) })
  const t = tracing()
  return t === undefined ? db : tracedDb(db, t)
}

/** How long stdout may take the last log lines at exit. */
const LOG_RELEASE_MS = 1000

/**
 * Runs `close` once on SIGTERM/SIGINT, then exits: within `graceMs` (the drain grace) plus a
 * moment, whatever blocks `close` or stdout (see releaseLogOutput).
 */
export function onShutdown(log: Logger, close: () => Promise<void>, graceMs: number): void {
  let closing = false
  const exit = (code: number) => {
    void releaseLogOutput(LOG_RELEASE_MS).then(() => process.exit(code))
  }
  const handler = (signal: string) => {
    if (closing) return
    closing = true
    log.info({ signal }, 'shutting down')
    // The last resort: the drain did not end within its grace.
    setTimeout(() => {
      log.error({ graceMs }, 'shutdown did not finish within the grace period: exiting')
      exit(1)
    }, graceMs + 2000).unref()
    close().then(stopTracing).then(
      () => exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        exit(1)
      },
    )
  }
  process.on('SIGTERM', () => handler('SIGTERM'))
  process.on('SIGINT', () => handler('SIGINT'))
}

/** The key that seals SNMP credentials (CREDENTIALS_KEY, CREDENTIALS_KEY_FILE, else one kept in DATA_DIR). */
export function credentialKey(rt: Runtime): Buffer {
  return resolveCredentialKey({ key: rt.env.credentialsKey, keyFile: rt.env.credentialsKeyFile, dataDir: rt.env.dataDir, log: rt.log })
}

/** The gateway's listeners and the settings that chose their ports (see ports.ts). */
export function gatewayPorts(rt: Runtime): PortCheck[] {
  const admin = rt.env.adminPort ?? rt.config.server.adminPort
  return [
    { setting: 'PORT', host: rt.env.host, port: rt.env.port },
    { setting: rt.env.adminPort === undefined ? 'ADMIN_PORT (or server.adminPort in api.json)' : 'ADMIN_PORT', host: rt.env.adminHost, port: admin },
  ]
}
