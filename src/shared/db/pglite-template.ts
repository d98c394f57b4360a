/**
 * The empty database PGlite's initdb makes, kept once per installed PGlite version: a new embedded
 * database is unpacked from it (about a second) instead of running initdb (several CPU-seconds of
 * WebAssembly). The first initdb of an installation writes it (the build does, see
 * scripts/built.mjs); it lives beside the package, in node_modules/.cache/netinv/, so a new
 * install or another PGlite version starts without it. It holds no data of anyone: PostgreSQL's
 * own catalog, as initdb leaves it, before any migration of netinv.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the template of the installed PGlite version lives; undefined when no node_modules holds PGlite. */
export function templateFile(): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'))
    const at = entry.lastIndexOf(`${sep}node_modules${sep}`)
    if (at < 0) return undefined
    const modules = entry.slice(0, at + `${sep}node_modules`.length)
    const pkg = JSON.parse(readFileSync(join(modules, '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version?: unknown }
    if (typeof pkg.version !== 'string' || !/^[\w.+-]+$/.test(pkg.version)) return undefined
    return join(modules, '.cache', 'netinv', `pglite-${pkg.version}-initdb.tar.gz`)
  } catch {
    return undefined
  }
}

/** The template's bytes, or undefined when there is none yet. */
export function readTemplate(file: string | undefined): Uint8Array | undefined {
  if (!file) return undefined
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * Keeps `bytes` as the template; written whole under a temporary name, then renamed, so that a
 * reader sees the whole file or none. A directory it cannot write (a read-only install) is no
 * error: the next database runs initdb again.
 */
export function saveTemplate(file: string, bytes: Uint8Array): boolean {
  const part = `${file}.${process.pid}.${Date.now()}.part`
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(part, bytes)
    renameSync(part, file)
    return true
  } catch {
    try {
      rmSync(part, { force: true })
    } catch {
      // nothing was written
    }
    return false
  }
}
