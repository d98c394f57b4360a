/**
 * A discovery that ends early leaves no configuration text behind that no snapshot refers to:
 * two recorded Catalyst switches (snmpsim replaying their SNMP side, test/helpers/recorded/) with
 * the command line of IOS over SSH. A first discovery keeps both switches' texts; their
 * configurations change, and the next discoveries read the new texts and then end early — one
 * fails while it stores them (the database refuses the second), one is stopped (through the job
 * row, as another replica stops it) right after it stored them, one rediscovery of a device is
 * stopped the same way. After each, the texts kept are exactly the first snapshot's. A rediscovery
 * that succeeds keeps the text of the device it refreshed, not those of the others its crawl read.
 */
import t from 'tap'
import type { Db } from '../../../../src/shared/db/index.js'
import { freshPostgres } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../../../helpers/recorded/agent.js'
import { recordedClis, useRecorded } from '../../../helpers/recorded/cli.js'
import { CATALYST_ACCESS, CATALYST_CORE, switchRecordings } from '../../../helpers/recorded/switch.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

type Row = Record<string, unknown>

const config = (hostname: string, extra: string[]) => ['!', 'version 17.9', `hostname ${hostname}`, '!', 'vlan 10', ' name users', ...extra, '!', 'end'].join('\n')

async function rows(client: Client, table: string, body: Row): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, body)
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

const texts = async (db: Db) => (await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts ORDER BY hash')).rows.map((r) => r.hash)

/** The database refuses a text when one is kept already that no snapshot's row has yet: the second text of a discovery fails. */
const FAIL_SECOND_TEXT = `
  CREATE OR REPLACE FUNCTION public.refuse_second_text() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF (SELECT count(*) FROM inventory.config_texts WHERE NOT (hash = ANY(public.first_texts()))) >= 1 THEN
      RAISE EXCEPTION 'disk full';
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER refuse_second_text BEFORE INSERT ON inventory.config_texts FOR EACH ROW EXECUTE FUNCTION public.refuse_second_text()
`

/** A stop request reaches every running job as soon as a text is stored (as another replica writes it into the job row). */
const STOP_AFTER_TEXTS = `
  CREATE OR REPLACE FUNCTION public.stop_after_texts() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE inventory.jobs SET stop_requested_by = 'operator', stop_requested_at = 1 WHERE status = 'running' AND stop_requested_at IS NULL;
    RETURN NULL;
  END $$;
  CREATE TRIGGER stop_after_texts AFTER INSERT OR UPDATE ON inventory.config_texts FOR EACH STATEMENT EXECUTE FUNCTION public.stop_after_texts()
`

testNeeding(t, 'a discovery that fails or is stopped after it stored configuration texts leaves none behind', recordedAgentMissing(), async (t) => {
  const SWITCHES = [CATALYST_ACCESS, CATALYST_CORE]
  const agents = await recordedAgents(t, ...switchRecordings(SWITCHES))
  const clis = await recordedClis(
    t,
    SWITCHES.map((sw) => ({ hostname: sw.sysName, running: config(sw.sysName, []), startup: null })),
    agents.address,
  )
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  await useRecorded(t, client, agents, clis)
  const discover = async () => {
    const r = await client.call('POST', 'snapshots', { source: 'network', seeds: [...agents.address.values()] })
    t.equal(r.status, 201, r.text)
    const { id, jobId } = r.body as { id: string; jobId: string }
    return { id, job: await client.waitJob(jobId) }
  }

  const first = await discover()
  t.match(first.job, { status: 'done' })
  const saved = await rows(client, 'management/configuration/saved', { snapshot: first.id, columns: ['sn', 'hash'] })
  t.equal(saved.length, 2, 'both switches\' configurations read')
  const kept = saved.map((s) => String(s.hash)).sort()
  t.same(await texts(db), kept)
  await db.query(`CREATE FUNCTION public.first_texts() RETURNS text[] LANGUAGE sql AS $$ SELECT ARRAY['${kept.join("','")}'] $$`)
  // both switches change: the next discoveries read texts no snapshot has
  for (const [i, device] of [...clis.devices.values()].entries()) device.running = config(device.hostname, [`vlan ${20 + i}`, ' name changed'])

  await t.test('a discovery that fails while it stores the texts', async (t) => {
    await db.query(FAIL_SECOND_TEXT)
    t.teardown(() => db.query('DROP TRIGGER refuse_second_text ON inventory.config_texts'))
    const failed = await discover()
    t.match(failed.job, { status: 'error', message: /discovery failed: .*disk full/ })
    t.match((await client.call('GET', `snapshots/${failed.id}`)).body, { status: 'error', errors: [{ errorType: 'DISCOVERY_FAILED' }] })
    t.same(await texts(db), kept, 'the text it stored before the failure is gone; the first snapshot\'s stay')
  })

  await t.test('a discovery stopped after it stored the texts', async (t) => {
    await db.query(STOP_AFTER_TEXTS)
    t.teardown(() => db.query('DROP TRIGGER stop_after_texts ON inventory.config_texts'))
    const stopped = await discover()
    t.match(stopped.job, { status: 'error', message: 'stopped by operator' })
    t.match((await client.call('GET', `snapshots/${stopped.id}`)).body, { status: 'error', errors: [{ errorType: 'STOPPED' }] })
    t.same(await texts(db), kept, 'the texts it stored are gone; the first snapshot\'s stay')
  })

  await t.test('a rediscovery of a device stopped after it stored the text', async (t) => {
    await db.query(STOP_AFTER_TEXTS)
    t.teardown(() => db.query('DROP TRIGGER stop_after_texts ON inventory.config_texts'))
    const r = await client.call('POST', `snapshots/${first.id}/devices`, { snList: [String(saved[0]!.sn)] })
    t.equal(r.status, 202, r.text)
    const job = await client.waitJob((r.body as { jobId: string }).jobId)
    t.match(job, { status: 'error', message: /stopped by operator; the snapshot is unchanged/ })
    t.same(await texts(db), kept, 'the text it stored is gone; the snapshot\'s stay')
  })

  await t.test('the next discovery that ends keeps its texts', async (t) => {
    const next = await discover()
    t.match(next.job, { status: 'done' })
    const now = (await rows(client, 'management/configuration/saved', { snapshot: next.id, columns: ['hash'] })).map((s) => String(s.hash))
    t.same(await texts(db), [...kept, ...now].sort())
  })

  await t.test('a rediscovery of one device keeps only that device\'s new text', async (t) => {
    // both change; only the first is rediscovered
    const [device, other] = [...clis.devices.values()]
    device!.running = config(device!.hostname, ['vlan 99', ' name rediscovered'])
    other!.running = config(other!.hostname, ['vlan 98', ' name not rediscovered'])
    const before = await texts(db)
    const sn = String((await rows(client, 'inventory/devices', { snapshot: first.id, columns: ['sn', 'hostname'], filters: { hostname: ['eq', device!.hostname] } }))[0]!.sn)
    const r = await client.call('POST', `snapshots/${first.id}/devices`, { snList: [sn] })
    t.equal(r.status, 202, r.text)
    t.match(await client.waitJob((r.body as { jobId: string }).jobId), { status: 'done' })
    const [row] = await rows(client, 'management/configuration/saved', { snapshot: first.id, columns: ['hash'], filters: { sn: ['eq', sn] } })
    const old = saved.find((s) => s.sn === sn)!.hash
    t.same(await texts(db), [...before.filter((h) => h !== old), String(row!.hash)].sort(), 'the replaced text went, the new one came; the other device\'s, read by the crawl and not kept, is not stored')
  })
})
