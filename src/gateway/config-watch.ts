/**
 * Applies a changed api.json or route file (`routes/*.json|yaml`) without a restart: on SIGHUP or
 * when a file (or the directory a Kubernetes ConfigMap swaps under them) changes. The new
 * configuration is validated like at start and the route table compiled from it and the route
 * files as they are now; only when both succeed are they applied, together. A bad file keeps the
 * running configuration and route table and logs an error naming the problem.
 */
import { watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'
import { loadConfig, type Config } from '../shared/config/index.js'

export interface ConfigWatchOptions {
  configDir: string
  log: Logger
  /** Applies a validated configuration (with the route files as they are now); throws to refuse it. */
  apply(config: Readonly<Config>): void
  /** Coalesces bursts of file events (default 100 ms). */
  debounceMs?: number
  /** Listen to SIGHUP (default true). */
  sighup?: boolean
}

export interface ConfigWatch {
  /** Re-reads the files now; true when a new configuration was applied. */
  reload(reason: string): boolean
  stop(): void
}

const ROUTES = 'routes'

export function watchConfig(options: ConfigWatchOptions): ConfigWatch {
  const { log } = options
  let timer: NodeJS.Timeout | null = null
  let top: FSWatcher | null = null
  let routes: FSWatcher | null = null

  function reload(reason: string): boolean {
    try {
      const { config, path, warnings } = loadConfig(options.configDir)
      for (const w of warnings) log.warn(w)
      options.apply(config)
      log.info({ reason, path }, 'configuration reloaded')
      return true
    } catch (err) {
      log.error({ reason, error: (err as Error).message }, 'configuration reload failed; keeping the running configuration and route table')
      return false
    }
  }

  function soon(): void {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = null
      watchRoutes()
      reload('file change')
    }, options.debounceMs ?? 100)
  }

  /** (Re)watches routes/, which may appear, vanish or be swapped after start. */
  function watchRoutes(): void {
    routes?.close()
    routes = null
    try {
      routes = watch(join(options.configDir, ROUTES), { persistent: false }, soon)
      routes.on('error', () => {
        routes?.close()
        routes = null
      })
    } catch {
      // No routes directory (yet): the watch of the config directory sees it appear.
    }
  }

  const onSighup = () => reload('SIGHUP')
  if (options.sighup !== false) process.on('SIGHUP', onSighup)

  try {
    top = watch(options.configDir, { persistent: false }, (_event, name) => {
      // ConfigMaps swap a ..data symlink; any change in the directory may be one of the files.
      if (name !== null && name !== 'api.json' && name !== ROUTES && !String(name).startsWith('..')) return
      soon()
    })
    top.on('error', (err) => log.warn({ error: err.message }, 'config directory watch failed'))
    watchRoutes()
  } catch (err) {
    log.warn({ dir: options.configDir, error: (err as Error).message }, 'cannot watch the config directory; reload with SIGHUP')
  }

  return {
    reload,
    stop() {
      if (timer) clearTimeout(timer)
      top?.close()
      routes?.close()
      process.off('SIGHUP', onSighup)
    },
  }
}
