/**
 * The discovery schedule: when enabled and due, one network discovery starts; not again before
 * the interval has passed, never while another runs, and only in the replica that claims it.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { compileConfig } from '../../../src/shared/config/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { JobRunner, type InventoryServices } from '../../../src/inventory/discovery/index.js'
import { runScheduleOnce } from '../../../src/inventory/discovery/schedule.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { createCredential } from '../../../src/inventory/settings/credential-store.js'
import { DEFAULT_NETWORK, saveNetworkSettings } from '../../../src/inventory/settings/network.js'
import { freshDb } from '../../helpers/db.js'

t.test('a due schedule starts one network discovery at a time', async (t) => {
  const db = await freshDb(t, 'postgres')
  await migrateInventory(db)
  let clock = 1_800_000_000_000
  const services = (): InventoryServices => ({ db, log: silentLogger(), config: compileConfig({}), runner: new JobRunner(silentLogger()), credentialKey: key, now: () => clock })
  const key = randomBytes(32)
  const a = services()
  const b = services()
  t.teardown(() => Promise.all([a.runner.close(), b.runner.close()]))
  t.equal(await runScheduleOnce(a), null, 'off by default')
  await saveNetworkSettings(db, { ...structuredClone(DEFAULT_NETWORK), seeds: ['127.0.0.1'], allowedSpecialNetworks: ['127.0.0.0/8'], limits: { concurrency: 1, timeoutMs: 100, retries: 0, maxDevices: 10 }, schedule: { enabled: true, intervalMinutes: 60 } }, clock)
  t.equal(await runScheduleOnce(a), null, 'no credential: nothing to run')
  await createCredential(db, key, { version: '2c', community: 'public' }, clock)
  const first = await runScheduleOnce(a)
  t.ok(first, 'due: started')
  t.equal(await runScheduleOnce(b), null, 'another replica does not start a second one while it runs')
  await a.runner.idle()
  t.equal(await runScheduleOnce(b), null, 'not before the interval has passed')
  clock += 60 * 60_000
  const second = await runScheduleOnce(b)
  t.ok(second && second !== first, 'the interval passed: the next one starts')
  t.equal(await runScheduleOnce(a), null)
  await b.runner.idle()
  const snaps = await db.query<{ origin: string; note: string; status: string }>('SELECT origin, note, status FROM inventory.snapshots ORDER BY seq')
  t.same(snaps.rows, [
    { origin: 'network', note: 'scheduled discovery', status: 'done' },
    { origin: 'network', note: 'scheduled discovery', status: 'done' },
  ])
})
