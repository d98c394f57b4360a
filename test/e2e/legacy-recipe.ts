/**
 * The one recipe for older clients (docs/api-versions.md "Older clients: one recipe"), applied to
 * a test's api.json exactly as the chart ships it: the `config` of
 * helm/netinv/examples/legacy-clients.yaml merged over what is there.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../helpers/owned.js'

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function merge(into: Json, from: Json): Json {
  for (const [k, v] of Object.entries(from)) into[k] = isObject(v) && isObject(into[k]) ? merge(into[k], v) : v
  return into
}

/** The recipe's settings (the example's `config`). */
export function legacyRecipe(): Json {
  const values = parse(readFileSync(join(ROOT, 'helm/netinv/examples/legacy-clients.yaml'), 'utf8')) as { config: Json }
  return values.config
}

/** Writes `configDir`/api.json with the recipe merged in, then `overrides` (e.g. a later sunset). */
export function applyLegacyRecipe(configDir: string, overrides: Json = {}): void {
  const file = join(configDir, 'api.json')
  const config = merge(merge(JSON.parse(readFileSync(file, 'utf8')) as Json, legacyRecipe()), overrides)
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o644 })
}
