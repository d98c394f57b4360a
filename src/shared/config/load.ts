/** Reads, validates and freezes `CONFIG_DIR/api.json`. */
import { readFileSync, statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { CONFIG_SCHEMA, type Config } from './schema.js'
import { ConfigError, deepFreeze, validate } from './schema-types.js'

export { ConfigError }

/** Validates a parsed api.json object (defaults filled in) and freezes it. */
export function compileConfig(raw: unknown): Readonly<Config> {
  return deepFreeze(validate(CONFIG_SCHEMA, raw, '') as Config)
}

export interface LoadedConfig {
  config: Readonly<Config>
  path: string
  warnings: string[]
}

/** Loads api.json from the directory; a missing file means all defaults. */
export function loadConfig(configDir: string): LoadedConfig {
  const path = join(configDir, 'api.json')
  const warnings: string[] = []
  if (!existsSync(path)) return { config: compileConfig({}), path, warnings: [`${path} not found; using defaults`] }
  const mode = statSync(path).mode
  if (mode & 0o022) warnings.push(`${path} is group- or world-writable (mode ${(mode & 0o777).toString(8)}); it should be 0644`)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new ConfigError('api.json', `is not valid JSON (${(err as Error).message})`)
  }
  return { config: compileConfig(raw), path, warnings }
}
