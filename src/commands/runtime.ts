/** Start-up shared by the commands: environment, config, logger, database. */
import { readEnv, type Env } from '../shared/env.js'
import { loadConfig, type Config } from '../shared/config/index.js'
import { createLogger, type Logger } from '../shared/log.js'
import { openDb, type Db } from '../shared/db/index.js'

export interface Runtime {
  env: Env
  config: Readonly<Config>
  log: Logger
}

export function loadRuntime(service: string): Runtime {
  const env = readEnv()
  const log = createLogger({ level: env.logLevel, name: service })
  const { config, warnings } = loadConfig(env.configDir)
  for (const w of warnings) log.warn(w)
  return { env, config, log }
}

export async function openRuntimeDb(rt: Runtime, poolSize?: number): Promise<Db> {
  return openDb({ databaseUrl: rt.env.databaseUrl, dataDir: rt.env.dataDir, ...(poolSize ? { poolSize } : {}) })
}

/** Runs `close` once on SIGTERM/SIGINT, then exits. */
export function onShutdown(log: Logger, close: () => Promise<void>): void {
  let closing = false
  const handler = (signal: string) => {
    if (closing) return
    closing = true
    log.info({ signal }, 'shutting down')
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => handler('SIGTERM'))
  process.on('SIGINT', () => handler('SIGINT'))
}
