/**
 * A test process for owned.test.ts: starts a `serve` on a test database of its own (or, with the
 * argument `lab`, a small lab), prints what it made as one JSON line and waits to be killed, as
 * tap kills a test file at its time limit. Its teardown functions never run.
 */
import { generatedTopology } from '../../src/lab/generate.js'
import { dirsEnv, serve, tempDirs } from '../e2e/process.js'
import { freshPostgres } from './db.js'
import { testLab } from './lab.js'

const t = { teardown: () => {} }
if (process.argv[2] === 'lab') {
  const lab = await testLab(t, generatedTopology(2, 217))
  console.log(JSON.stringify({ lab: lab.prefix }))
} else {
  const { url } = await freshPostgres(t)
  const served = await serve(t, { ...dirsEnv(tempDirs(t)), DATABASE_URL: url })
  console.log(JSON.stringify({ serve: served.child.pid, database: new URL(url).pathname.slice(1) }))
}
setInterval(() => {}, 60_000)
