import t from 'tap'
import { compileConfig } from '../../src/shared/config/index.js'
import { silentLogger } from '../../src/shared/log.js'
import { startInventory } from '../../src/inventory/server.js'
import { freshPostgres } from '../helpers/db.js'

t.test('the inventory listener does not cut a long request body (an upload through the gateway), yet bounds headers', async (t) => {
  const { db } = await freshPostgres(t)
  const inv = await startInventory({ db, config: compileConfig({}), log: silentLogger(), internalSecret: 'test-internal-secret', port: 0 })
  t.teardown(() => inv.close(0))
  t.equal(inv.server.requestTimeout, 0, "no limit on receiving a whole request (node's default is 300 s)")
  t.equal(inv.server.headersTimeout, 60000)
  const r = await fetch(`${inv.url}/healthz`)
  t.equal(r.status, 200)
})
