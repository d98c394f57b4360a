import t from 'tap'
import { Socket } from 'node:net'
import { Slots } from '../../src/shared/slots.js'

t.test('holds what was added and not deleted; slots are reused; deletes are idempotent', async (t) => {
  const set = new Slots<Socket>()
  const [a, b, c] = [new Socket(), new Socket(), new Socket()]
  set.add(a)
  set.add(b)
  t.same([...set], [a, b])
  set.delete(a)
  set.delete(a)
  t.same([...set], [b])
  set.add(c)
  t.same([...set], [c, b], 'the freed slot is taken again')
  set.delete(new Socket())
  t.same([...set], [c, b], 'deleting a stranger changes nothing')
  set.delete(b)
  set.delete(c)
  t.same([...set], [])
})
