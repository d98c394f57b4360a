import t from 'tap'
import { DeadlineWatch } from '../../src/gateway/deadlines.js'

interface Item {
  watchSlot: number
  name: string
  due: number
  done?: boolean
  expired?: boolean
}

function watchOf(): DeadlineWatch<Item> {
  return new DeadlineWatch<Item>(
    (item, now) => {
      if (item.done) return false
      if (now >= item.due) {
        item.expired = true
        return false
      }
      return true
    },
    () => 5,
  )
}

const item = (name: string, due: number): Item => ({ watchSlot: -1, name, due })

t.test('a sweep expires what is due, forgets what settled, keeps the rest', async (t) => {
  const w = watchOf()
  const a = item('a', 10)
  const b = item('b', 100)
  const c = item('c', 100)
  for (const i of [a, b, c]) w.watch(i)
  c.done = true
  w.sweep(50)
  t.equal(a.expired, true)
  t.equal(b.expired, undefined)
  t.equal(w.size, 1)
  t.equal(b.watchSlot, 0, 'the kept entry knows its new place')
  t.equal(a.watchSlot, -1)
  w.stop()
})

t.test('unwatch removes an entry at once, wherever it stands', async (t) => {
  const w = watchOf()
  const items = ['a', 'b', 'c', 'd'].map((n) => item(n, 100))
  for (const i of items) w.watch(i)
  w.unwatch(items[1]!)
  w.unwatch(items[1]!)
  t.equal(w.size, 3, 'twice is once')
  w.unwatch(items[0]!)
  t.equal(w.size, 2)
  t.same(items.map((i) => i.watchSlot).sort(), [-1, -1, 0, 1], 'the remaining entries hold the first places')
  w.sweep(200)
  t.ok(items[2]!.expired && items[3]!.expired && !items[0]!.expired && !items[1]!.expired, 'only the watched expire')
})

t.test('a check that unwatches entries (its own or others) loses none of the rest', async (t) => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((n) => item(n, 100))
  const checked: string[] = []
  const w: DeadlineWatch<Item> = new DeadlineWatch<Item>(
    (it) => {
      checked.push(it.name)
      if (it.name === 'b') w.unwatch(it) // dealing with b settles it
      if (it.name === 'c') w.unwatch(items[3]!) // and c settles d, not yet checked
      if (it.name === 'e') w.unwatch(items[0]!) // and e settles a, already kept
      return true
    },
    () => 5,
  )
  for (const i of items) w.watch(i)
  w.sweep(50)
  t.same(checked, ['a', 'b', 'c', 'e'], 'every entry still watched is checked, d (unwatched before its turn) is not')
  t.equal(w.size, 3, 'a stays in place until the next sweep, b and d are gone')
  t.same(
    items.map((i) => i.watchSlot),
    [-1, -1, 1, -1, 2],
  )
  checked.length = 0
  w.sweep(60)
  t.same(checked, ['c', 'e'], 'the next sweep drops a')
  t.equal(w.size, 2)
  w.unwatch(items[2]!)
  t.equal(w.size, 1, 'outside a sweep, unwatch removes at once')
  t.equal(items[4]!.watchSlot, 0)
  w.stop()
})

t.test('the timer sweeps by itself and stops when nothing is watched', async (t) => {
  const w = watchOf()
  const a = item('a', performance.now() + 20)
  w.watch(a)
  await new Promise((r) => setTimeout(r, 80))
  t.equal(a.expired, true, 'expired within a few ticks')
  t.equal(w.size, 0)
})
