/**
 * Whether the build in dist/ is current: its stamp (dist/.build-stamp, written by the last step of
 * `npm run build`) against the newest modification time of the build's inputs. Used by
 * scripts/built.mjs (build when needed) and by the tests (start the build when it is current).
 */
import { lstatSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import process from 'node:process'

export const STAMP = join('dist', '.build-stamp')
/** What a build reads: a change to any of these makes the build stale. */
const INPUTS = ['src', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  let stat
  try {
    stat = lstatSync(path)
  } catch {
    return { mtime: 0, path }
  }
  let found = { mtime: stat.mtimeMs, path }
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules' || entry === 'dist') continue
      const inner = newest(join(path, entry))
      if (inner.mtime > found.mtime) found = inner
    }
  }
  return found
}

export function stampTime(file = STAMP) {
  try {
    return lstatSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * Why `root`'s build is stale ("no build yet", "<path> changed since the last build"), or
 * undefined when it is current. One walk of the sources: a few milliseconds.
 */
export function staleReason(root = process.cwd()) {
  const built = stampTime(join(root, STAMP))
  if (built === undefined) return 'no build yet'
  const latest = INPUTS.map((input) => newest(join(root, input))).reduce((a, b) => (b.mtime > a.mtime ? b : a))
  return latest.mtime > built ? `${relative(root, latest.path)} changed since the last build` : undefined
}
