/**
 * One process per embedded database directory. PGlite keeps the database in this process's
 * memory and writes it back to DATA_DIR: a second process on the same directory (for example
 * `netinv user create` while `netinv serve` runs) would see stale data, and whatever it writes is
 * overwritten by the first one. So the directory is locked by a file holding the owner's pid.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const LOCK_FILE = 'netinv.lock'

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  // A container restarted on the same volume gets the same pid: that lock is ours, not live.
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock of `dir` or throws naming the process holding it; returns the release. */
export function lockDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 })
      return () => rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = Number(readFileSync(file, 'utf8').trim())
      if (alive(owner)) {
        throw new Error(
          `the embedded database in ${dir} is in use by process ${owner}: stop that process first ` +
            '(or, while it runs, use the HTTP API; with DATABASE_URL several processes may share one database)',
          { cause: err },
        )
      }
      rmSync(file, { force: true }) // left by a process that is gone
    }
  }
  throw new Error(`could not lock ${file}`)
}
