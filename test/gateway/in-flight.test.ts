import t from 'tap'
import { ServerResponse, IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { InFlight } from '../../src/gateway/in-flight.js'

function response(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()))
}

t.test('holds what was added and not deleted; slots are reused; deletes are idempotent', async (t) => {
  const set = new InFlight()
  const [a, b, c] = [response(), response(), response()]
  set.add(a)
  set.add(b)
  t.same([...set], [a, b])
  set.delete(a)
  set.delete(a)
  t.same([...set], [b])
  set.add(c)
  t.same([...set], [c, b], 'the freed slot is taken again')
  set.delete(response())
  t.same([...set], [c, b], 'deleting a stranger changes nothing')
  set.delete(b)
  set.delete(c)
  t.same([...set], [])
})
