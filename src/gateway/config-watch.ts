/**
 * Applies a changed api.json without a restart: on SIGHUP or when the file (or the directory a
 * Kubernetes ConfigMap swaps under it) changes. The new file is validated like at start; a bad
 * file keeps the running configuration and logs an error naming the problem.
 */
import { watch, type FSWatcher } from 'node:fs'
import type { Logger } from 'pino'
import { loadConfig, type Config } from '../shared/config/index.js'

export interface ConfigWatchOptions {
  configDir: string
  log: Logger
  apply(config: Readonly<Config>): void
  /** Coalesces bursts of file events (default 100 ms). */
  debounceMs?: number
  /** Listen to SIGHUP (default true). */
  sighup?: boolean
}

export interface ConfigWatch {
  /** Re-reads the file now; true when a new configuration was applied. */
  reload(reason: string): boolean
  stop(): void
}

export function watchConfig(options: ConfigWatchOptions): ConfigWatch {
  const { log } = options
  let timer: NodeJS.Timeout | null = null
  let watcher: FSWatcher | null = null

  function reload(reason: string): boolean {
    try {
      const { config, path, warnings } = loadConfig(options.configDir)
      for (const w of warnings) log.warn(w)
      options.apply(config)
      log.info({ reason, path }, 'configuration reloaded')
      return true
    } catch (err) {
      log.error({ reason, error: (err as Error).message }, 'configuration reload failed; keeping the running configuration')
      return false
    }
  }

  const onSighup = () => reload('SIGHUP')
  if (options.sighup !== false) process.on('SIGHUP', onSighup)

  try {
    const file = 'api.json'
    watcher = watch(options.configDir, { persistent: false }, (_event, name) => {
      // ConfigMaps swap a ..data symlink; any change in the directory may be the file.
      if (name !== null && name !== file && !String(name).startsWith('..')) return
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => reload('file change'), options.debounceMs ?? 100)
    })
    watcher.on('error', (err) => log.warn({ error: err.message }, 'config directory watch failed'))
  } catch (err) {
    log.warn({ dir: options.configDir, error: (err as Error).message }, 'cannot watch the config directory; reload with SIGHUP')
  }

  return {
    reload,
    stop() {
      if (timer) clearTimeout(timer)
      watcher?.close()
      process.off('SIGHUP', onSighup)
    },
  }
}
