/**
 * The sizes and counts of tables/management/snapshots: measured when discovery ends, measured
 * again for a clone (its own partitions), and measured at start for snapshots taken before the
 * figures existed.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'

const FIGURES = ['loadedSize', 'unloadedSize', 'interfaceActiveCount', 'interfaceEdgeCount', 'userCount'] as const
type Figures = Record<(typeof FIGURES)[number], number>

t.test('snapshot figures: discovery, clone, and snapshots taken before they existed', async (t) => {
  const db = await freshDb(t, 'pglite')
  let api = await startApp(t, db)
  const id = await api.discover({ sites: ['ROME-01'] })
  const figures = async (snapshot: string): Promise<Figures> => {
    const body = (await api.call('GET', `snapshots/${snapshot}`)).body as Figures
    return Object.fromEntries(FIGURES.map((k) => [k, body[k]])) as Figures
  }
  const first = await figures(id)
  for (const k of FIGURES) t.ok(first[k] > 0, `${k} measured (${first[k]})`)

  const cloned = await api.call('POST', `snapshots/${id}/clone`)
  const cloneId = cloned.headers.get('x-snapshot-id') ?? (cloned.body as { id: string } | undefined)?.id
  t.ok(cloneId, 'the clone has an id')
  const clone = await figures(cloneId!)
  for (const k of ['interfaceActiveCount', 'interfaceEdgeCount', 'userCount'] as const) t.equal(clone[k], first[k], `the clone counts the same ${k}`)
  t.ok(clone.loadedSize > 0, 'and measures its own partitions')

  // a snapshot finished before this release: no figures yet
  await db.query('UPDATE inventory.snapshots SET loaded_size = 0, unloaded_size = 0, interface_active_count = 0, interface_edge_count = 0, user_count = 0 WHERE id = $1', [id])
  t.equal((await figures(id)).loadedSize, 0)
  await api.close()
  api = await startApp(t, db)
  t.same(await figures(id), first, 'measured again at start')
})
