/** Builds a small lab (two routers, a switch between g1 and its host) and waits to be killed (the teardown test kills it to play a crash). */
import { Lab, checkTopology } from '../../src/lab/index.js'
import { generatedTopology } from '../../src/lab/generate.js'

const prefix = process.argv[2]!
const topology = generatedTopology(2, 215)
const host = topology.hosts[0]!
host.switch = 's1'
topology.switches = [{ name: 's1', uplink: `${host.router}:${host.interface}`, location: 'Generated lab, rack 1' }]
await Lab.up({ prefix, topology: checkTopology(topology) })
console.log('up')
setInterval(() => {}, 60_000)
