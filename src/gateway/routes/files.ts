/**
 * Operators' route files: `CONFIG_DIR/routes/<name>.json` (or `.yaml`, `.yml`), each a list of
 * endpoints of the built-in table's shape that names the upstream serving them. Files are read in
 * name order; names starting with a dot are skipped (a Kubernetes ConfigMap volume keeps its
 * files behind `..data`). A file that cannot be read or parsed, or an entry that fails the
 * check, refuses the whole set with a message naming the file, the entry and the key.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import type { Endpoint } from '../../shared/manifest.js'
import { parseEntry, RouteError } from './entry.js'

const ROUTE_FILE = /^[^.].*\.(json|ya?ml)$/

export interface RouteFile {
  /** `routes/<file name>`, as messages and docs name it. */
  source: string
  entries: Endpoint[]
}

/** The route files of `dir` (none when it does not exist). */
export function readRouteFiles(dir: string): RouteFile[] {
  if (!existsSync(dir)) return []
  const names = readdirSync(dir)
    .filter((name) => ROUTE_FILE.test(name) && statSync(join(dir, name)).isFile())
    .sort()
  return names.map((name) => parseRouteFile(`routes/${name}`, readFileSync(join(dir, name), 'utf8'), name.endsWith('.json') ? 'json' : 'yaml'))
}

/** Parses and checks one route file's text. */
export function parseRouteFile(source: string, text: string, format: 'json' | 'yaml'): RouteFile {
  let raw: unknown
  try {
    raw = format === 'json' ? JSON.parse(text) : parseYaml(text)
  } catch (err) {
    throw new RouteError(source, `is not valid ${format === 'json' ? 'JSON' : 'YAML'} (${(err as Error).message.split('\n')[0]})`)
  }
  if (!Array.isArray(raw)) throw new RouteError(source, 'must be an array of endpoints')
  return { source, entries: raw.map((entry, i) => parseEntry(entry, `${source}[${i}]`, false)) }
}
