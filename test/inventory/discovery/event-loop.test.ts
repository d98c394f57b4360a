/**
 * A discovery or a rediscovery never holds the service's event loop: long work takes turns, so
 * other users' requests are answered meanwhile. On PostgreSQL (the database in another process),
 * the test measures the CPU time the process spends in its longest stall of the event loop while
 * a discovery of the "small" network loads (all its sites in one batch), and while one device of
 * the "large" network is rediscovered: that rediscovery used to simulate the whole network of a
 * thousand sites in one go (issue 30: about 87 s during which `GET /api/version` waited).
 */
import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import { stalls } from '../../helpers/event-loop.js'
import { startApp } from '../app.js'

/**
 * CPU time the process may spend in one stall (ms). Long work takes a turn every 10 ms, and the
 * largest step that cannot be cut (the model of one site of the "large" network) costs tens of
 * milliseconds; before, the discovery held the loop for most of a second at a time and the
 * rediscovery for tens of seconds.
 */
const CPU_BOUND_MS = 250
/** Wall time of the longest stall of the rediscovery, far above a turn even on a loaded machine. */
const WALL_BOUND_MS = 5000

t.test('a discovery and a rediscovery leave the event loop to other requests', async (t) => {
  const { db } = await freshPostgres(t)
  const api = await startApp(t, db)

  const discovery = await stalls(() => api.discover({ profile: 'small' }))
  t.ok(discovery.cpuMs < CPU_BOUND_MS, `discovery of the small network: longest stall ${discovery.cpuMs} ms of CPU (${discovery.wallMs} ms of wall time)`)

  // A snapshot of the whole large network takes many minutes to load: this one holds the rows of
  // the one site that matters, and its settings name the whole network, as a discovery of every
  // site would have written them.
  const id = await api.discover({ profile: 'large', sites: ['BERLIN-01'] })
  await db.query(`UPDATE inventory.snapshots SET settings = jsonb_set(settings, '{sites}', '[]'::jsonb) WHERE id = $1`, [id])
  const r = await api.call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['sn'], filters: { devType: ['eq', 'switch'] }, pagination: { limit: 1 } })
  const sn = String((r.body as { data: Array<{ sn: string }> }).data[0]!.sn)
  const rediscovery = await stalls(async () => {
    const started = await api.call('POST', `snapshots/${id}/devices`, { snList: [sn] })
    t.equal(started.status, 202, started.text)
    return api.waitJob((started.body as { jobId: string }).jobId)
  })
  t.match(rediscovery.result, { status: 'done', message: 'rediscovered 1 devices' })
  t.ok(rediscovery.cpuMs < CPU_BOUND_MS, `rediscovery of one device of the large network: longest stall ${rediscovery.cpuMs} ms of CPU (${rediscovery.wallMs} ms of wall time)`)
  t.ok(rediscovery.wallMs < WALL_BOUND_MS, `and ${rediscovery.wallMs} ms of wall time`)
})
