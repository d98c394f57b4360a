/**
 * A paced loop lets timers and I/O run while it works; an unpaced loop over settled promises does
 * not. Each item here costs 5 ms of work, so a pace of 10 ms takes turns between them.
 */
import t from 'tap'
import { Pace, paced } from '../../src/shared/pace.js'

function* busyItems(n: number): Generator<number> {
  for (let i = 0; i < n; i++) {
    const until = performance.now() + 5
    while (performance.now() < until) {
      // work
    }
    yield i
  }
}

/** The item the loop was at when a timer set at its start first ran (null: not before it ended). */
async function timerRanAt(loop: (onItem: (i: number) => void) => Promise<void>): Promise<number | null> {
  let at: number | null = null
  let current = -1
  const timer = setTimeout(() => (at = current), 0)
  await loop((i) => (current = i))
  clearTimeout(timer)
  return at
}

t.test('a loop over settled promises holds the event loop to its end', async (t) => {
  t.equal(await timerRanAt(async (onItem) => {
    for await (const i of busyItems(20)) onItem(i)
  }), null)
})

t.test('paced() takes turns: a timer runs within the first items', async (t) => {
  const at = await timerRanAt(async (onItem) => {
    for await (const i of paced(busyItems(20))) onItem(i)
  })
  t.ok(at !== null && at < 19, `the timer ran at item ${at}`)
})

t.test('a loop that asks its Pace takes turns too', async (t) => {
  const at = await timerRanAt(async (onItem) => {
    const pace = new Pace()
    for (const i of busyItems(20)) {
      onItem(i)
      if (pace.due) await pace.turn()
    }
  })
  t.ok(at !== null && at < 19, `the timer ran at item ${at}`)
})
