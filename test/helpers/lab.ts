/**
 * A lab of a test's own: built under a test lab prefix (owned.ts `labPrefix`), removed at
 * teardown, and by the test process's watchdog when the process dies without tearing down (the
 * lab's owner file names the test process).
 */
import { Lab, type Topology } from '../../src/lab/index.js'
import { labPrefix, own } from './owned.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export async function testLab(t: Teardown, topology: Topology): Promise<Lab> {
  own()
  const lab = await Lab.up({ prefix: labPrefix(), topology })
  t.teardown(() => lab.down())
  return lab
}
