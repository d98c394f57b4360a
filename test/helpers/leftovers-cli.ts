/**
 * Lists and removes what test processes left on this machine (run by `.ci/leftovers`).
 * Exit 0 when nothing was left, 1 when something was (and has been removed, unless --report).
 *   --all     what the test processes of any checkout that are gone left (and test databases
 *             named before they carried their owner); without it, only those of this checkout;
 *             never what a live test process owns
 *   --report  list only, remove nothing
 *   --owner   <pid>: what test process <pid> owned, silently (its watchdog runs this)
 */
import { parseArgs } from 'node:util'
import { leftovers, removeLeftovers, watchdogsDone } from './leftovers.js'

const { values } = parseArgs({ options: { all: { type: 'boolean' }, report: { type: 'boolean' }, owner: { type: 'string' } }, strict: true })
if (values.owner !== undefined) {
  // the watchdog of a test process that has ended (watchdog.mjs)
  await removeLeftovers({ owner: Number(values.owner) })
  process.exit(0)
}
const scope = { all: values.all === true }
await watchdogsDone()
const found = values.report ? (await leftovers(scope)).map((l) => l.what) : await removeLeftovers(scope)
for (const what of found) console.log(`left by the tests: ${what}`)
console.log(found.length === 0 ? 'the tests left nothing behind' : `the tests left ${found.filter((w) => !w.startsWith(' ')).length} things behind${values.report ? '' : ' (removed)'}`)
process.exit(found.length === 0 ? 0 : 1)
