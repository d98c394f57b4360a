/**
 * The recorded switches (switch.ts: three Catalysts, one in MST mode, and a whitebox MSTP switch) served by snmpsim until interrupted, for looking at
 * what a discovery of them shows through the web interface or the command line:
 *   npx tsx test/helpers/recorded/serve-switches.ts
 * prints each switch's address and the community, then waits; Ctrl-C stops the agents.
 */
import { recordedAgents } from './agent.js'
import { CATALYST_ACCESS, CATALYST_CORE, CATALYST_MST, WHITEBOX_MSTP, switchRecordings } from './switch.js'

const stops: Array<() => unknown> = []
const agents = await recordedAgents({ teardown: (fn) => stops.push(fn) }, ...switchRecordings([CATALYST_ACCESS, CATALYST_CORE, WHITEBOX_MSTP, CATALYST_MST]))
console.log(JSON.stringify({ community: agents.community, address: Object.fromEntries(agents.address) }))
const stop = async () => {
  for (const fn of stops.reverse()) await fn()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
setInterval(() => {}, 1 << 30)
