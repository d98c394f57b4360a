/**
 * The watchdog of one test process (owned.ts): waits until the pipe from the test process
 * closes, which happens when that process ends in any way, SIGKILL included, then removes what
 * it owned and exits. Usage: watchdog.ts <pid of the test process>
 */
import { removeLeftovers } from './leftovers.js'

const owner = Number(process.argv[2])
let done = false
async function clean(): Promise<void> {
  if (done) return
  done = true
  await removeLeftovers({ owner }).catch(() => {})
  process.exit(0)
}
process.stdin.on('data', () => {})
process.stdin.once('end', () => void clean())
process.stdin.once('close', () => void clean())
process.stdin.once('error', () => void clean())
