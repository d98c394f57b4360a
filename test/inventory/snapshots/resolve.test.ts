import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { resolveSnapshot } from '../../../src/inventory/snapshots/index.js'
import { ApiError } from '../../../src/shared/errors.js'

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'resolved'
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err)
  }
}

t.test('$last, $prev, $lastLocked over loaded snapshots', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  t.equal(await code(resolveSnapshot(db, '$last')), 'API_NOT_FOUND', 'nothing yet')
  const small = { sites: ['BERLIN-01'] }
  const a = await api.discover(small)
  const b = await api.discover(small)
  t.equal(await resolveSnapshot(db, '$last'), b)
  t.equal(await resolveSnapshot(db, '$prev'), a)
  t.equal(await code(resolveSnapshot(db, '$lastLocked')), 'API_NOT_FOUND')
  await api.call('POST', `snapshots/${a}/lock`)
  t.equal(await resolveSnapshot(db, '$lastLocked'), a)
  t.equal(await resolveSnapshot(db, a), a)
  await api.call('POST', `snapshots/${b}/unload`)
  t.equal(await resolveSnapshot(db, '$last'), a, 'unloaded snapshots are skipped')
  t.equal(await code(resolveSnapshot(db, '$prev')), 'API_NOT_FOUND')
  t.equal(await code(resolveSnapshot(db, b)), 'API_SNAPSHOT_NOT_LOADED')
  t.equal(await code(resolveSnapshot(db, '00000000-0000-4000-8000-000000000000')), 'API_NOT_FOUND')
  t.equal(await code(resolveSnapshot(db, 'garbage')), 'API_NOT_FOUND')
  t.equal(await code(resolveSnapshot(db, '$first')), 'API_NOT_FOUND')
})
