/* global process */
/**
 * The watchdog of one test process (owned.ts): waits until the pipe from the test process closes,
 * which happens when that process ends in any way, SIGKILL included, then runs
 * `leftovers-cli.ts --owner <pid>`, which removes what the test process owned, and exits.
 * Plain JavaScript with no import of the project's code, so that waiting costs next to nothing
 * beside the tests (loading TypeScript waits until the test process is gone).
 * Usage: node watchdog.mjs <pid of the test process>
 */
import { spawn } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const owner = process.argv[2]
const here = dirname(fileURLToPath(import.meta.url))
let done = false
function clean() {
  if (done) return
  done = true
  const cleanup = spawn(process.execPath, ['--import', 'tsx', resolve(here, 'leftovers-cli.ts'), '--owner', owner], { cwd: resolve(here, '../..'), stdio: 'ignore' })
  cleanup.once('exit', () => process.exit(0))
  cleanup.once('error', () => process.exit(1))
}
process.stdin.on('data', () => {})
process.stdin.once('end', clean)
process.stdin.once('close', clean)
process.stdin.once('error', clean)
