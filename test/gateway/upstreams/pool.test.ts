import t from 'tap'
import fc from 'fast-check'
import { keepAliveHint } from '../../../src/gateway/upstreams/pool.js'

/** What node 20's agent reads from the answer's header object (its keepSocketAlive). */
function nodeHint(value: string | undefined): number {
  if (!value) return -1
  const hint = /^timeout=(\d+)/.exec(value)?.[1]
  return hint ? Number.parseInt(hint, 10) : -1
}

t.test("the Keep-Alive hint is read from the raw header lines as node's agent reads it from the header object", async (t) => {
  for (const value of ['timeout=5', 'timeout=5, max=1000', 'max=10, timeout=5', 'timeout=', 'timeout=x', 'Timeout=5', 'timeout=0', 'timeout=12abc', ''])
    t.equal(keepAliveHint(['Content-Type', 'text/plain', 'Keep-Alive', value]), nodeHint(value), JSON.stringify(value))
  t.equal(keepAliveHint(['KEEP-ALIVE', 'timeout=7']), 7, 'any case of the name')
  t.equal(keepAliveHint(['Connection', 'keep-alive']), -1, 'no Keep-Alive line: no hint')
  fc.assert(
    fc.property(fc.stringMatching(/^(timeout=)?[0-9a-z=, ]{0,12}$/), (value) => keepAliveHint(['keep-alive', value]) === nodeHint(value)),
    { numRuns: 2000 },
  )
})
