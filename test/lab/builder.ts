/** Builds a small lab and waits to be killed (the teardown test kills it to play a crash). */
import { Lab } from '../../src/lab/index.js'
import { generatedTopology } from '../../src/lab/generate.js'

const prefix = process.argv[2]!
await Lab.up({ prefix, topology: generatedTopology(2, 215) })
console.log('up')
setInterval(() => {}, 60_000)
