/**
 * Saved or unsaved configurations, the difference of two versions, and texts kept only while a
 * snapshot refers to them, through the API: two recorded Catalyst switches (snmpsim replaying
 * their SNMP side, test/helpers/recorded/) with the command line of IOS over SSH
 * (test/helpers/recorded/cli.ts). A discovery reads each one's running and startup
 * configuration: the access switch saved its configuration, the core switch has a change it did
 * not save. The core switch is then changed and saved, and a second discovery reads it;
 * `tables/management/configuration/compare` shows the lines that changed between the two
 * versions. trigger-config-backup reads a later unsaved change; deleting the snapshots removes
 * the texts that no other snapshot refers to.
 */
import t from 'tap'
import { freshPostgres } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../../../helpers/recorded/agent.js'
import { recordedClis, useRecorded } from '../../../helpers/recorded/cli.js'
import { CATALYST_ACCESS, CATALYST_CORE, switchRecordings } from '../../../helpers/recorded/switch.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

type Row = Record<string, unknown>

const SECRET = '$9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucy'
const COMMUNITY = 'cOmmun1tyRO'

const config = (hostname: string, extra: string[]) =>
  [
    '!',
    'version 17.9',
    'service timestamps debug datetime msec',
    `hostname ${hostname}`,
    '!',
    `enable secret 9 ${SECRET}`,
    '!',
    'vlan 10',
    ' name users',
    'vlan 20',
    ' name voice',
    ...extra,
    '!',
    'interface Vlan10',
    ' ip address 10.10.0.2 255.255.255.0',
    '!',
    `snmp-server community ${COMMUNITY} RO`,
    'end',
  ].join('\n')

async function rows(client: Client, table: string, body: Row): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, body)
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

testNeeding(t, 'saved and unsaved configurations of recorded IOS switches, and the difference of two versions', recordedAgentMissing(), async (t) => {
  const SWITCHES = [CATALYST_ACCESS, CATALYST_CORE]
  const agents = await recordedAgents(t, ...switchRecordings(SWITCHES))
  const access = CATALYST_ACCESS.sysName
  const core = CATALYST_CORE.sysName
  const clis = await recordedClis(
    t,
    [
      { hostname: access, running: config(access, []), startup: config(access, []) },
      // vlan 30 was added and not saved yet
      { hostname: core, running: config(core, ['vlan 30', ' name cameras']), startup: config(core, []) },
    ],
    agents.address,
  )
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  await useRecorded(t, client, agents, clis)
  const discover = async () => {
    const r = await client.call('POST', 'snapshots', { source: 'network', seeds: [...agents.address.values()] })
    t.equal(r.status, 201, r.text)
    const { id, jobId } = r.body as { id: string; jobId: string }
    t.match(await client.waitJob(jobId), { status: 'done' })
    return id
  }
  const id = await discover()

  const saved = await rows(client, 'management/configuration/saved', { snapshot: id, columns: ['sn', 'hostname', 'hash', 'status'], sort: { column: 'hostname', order: 'asc' } })
  t.same(
    saved.map((s) => `${String(s.hostname)} ${String(s.status)}`).sort(),
    [`${access} saved`, `${core} unsaved`].sort(),
    'the access switch saved its configuration; the core switch did not save vlan 30',
    { report: await rows(client, 'discovery/connectivity-report', { snapshot: id, columns: ['ip', 'result', 'error'] }) },
  )
  const coreRow = saved.find((s) => s.hostname === core)!
  const accessRow = saved.find((s) => s.hostname === access)!
  const versions = await rows(client, 'management/configuration', { columns: ['hostname', 'hash', 'status'], filters: { hostname: ['eq', core] } })
  t.same(versions.map((v) => `${String(v.hash)} ${String(v.status)}`), [`${String(coreRow.hash)} unsaved`], 'management/configuration says it too')
  const text = await client.call('GET', `tables/management/configuration/download?hash=${String(coreRow.hash)}`)
  t.equal(text.status, 200)
  t.match(text.text, /^vlan 30$/m)
  t.match(text.text, /^enable secret 9 \*{8}$/m)
  t.notOk(text.text.includes(SECRET) || text.text.includes(COMMUNITY), 'secrets masked before storage')
  t.notOk(/Building configuration|Current configuration/.test(text.text), 'the lines IOS prints around the configuration are left out')

  // an operator changes the core switch and saves it: `copy running-config startup-config`
  const device = clis.devices.get(core)!
  device.running = config(core, ['vlan 30', ' name cameras', 'vlan 40', ' name printers']).replace(' ip address 10.10.0.2 255.255.255.0', ' ip address 10.10.0.3 255.255.255.0')
  device.startup = device.running
  const second = await discover()
  const [after] = await rows(client, 'management/configuration/saved', { snapshot: second, columns: ['hash', 'status'], filters: { sn: ['eq', coreRow.sn] } })
  t.equal(after!.status, 'saved', 'saved now')
  const from = String(coreRow.hash)
  const to = String(after!.hash)
  t.not(from, to)
  t.same(
    (await rows(client, 'management/configuration', { columns: ['hash', 'status'], filters: { hostname: ['eq', core] }, sort: { column: 'lastChangeAt', order: 'asc' } })).map((v) => `${String(v.hash)} ${String(v.status)}`),
    [`${from} unsaved`, `${to} saved`],
    'two versions of the core switch\'s configuration',
  )

  await t.test('the difference of two versions: added and removed lines as a unified diff', async (t) => {
    const d = await client.call('GET', `tables/management/configuration/compare?from=${from}&to=${to}`)
    t.equal(d.status, 200, d.text)
    t.match(d.headers.get('content-type'), /application\/json/)
    const body = d.body as { from: string; to: string; identical: boolean; added: number; removed: number; diff: string }
    t.same({ from: body.from, to: body.to, identical: body.identical, added: body.added, removed: body.removed }, { from, to, identical: false, added: 3, removed: 1 })
    const changed = body.diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l))
    t.same(changed, ['+vlan 40', '+ name printers', '- ip address 10.10.0.2 255.255.255.0', '+ ip address 10.10.0.3 255.255.255.0'])
    t.match(body.diff, new RegExp(`^--- ${from}\\n\\+\\+\\+ ${to}\\n@@ `))
    t.match(body.diff, /^ vlan 30$/m, 'three lines of context by default')

    const plain = await client.call('GET', `tables/management/configuration/compare?from=${from}&to=${to}&context=0`, undefined, { accept: 'text/plain' })
    t.equal(plain.status, 200)
    t.match(plain.headers.get('content-type'), /^text\/plain/)
    t.notMatch(plain.text, /^ vlan 30$/m, 'no context with context=0')
    t.match(plain.text, /^\+vlan 40$/m)

    const same = await client.call('GET', `tables/management/configuration/compare?from=${to}&to=${to}`)
    t.same(same.body, { from: to, to, identical: true, added: 0, removed: 0, diff: '' })
    const back = (await client.call('GET', `tables/management/configuration/compare?from=${to}&to=${from}`)).body as { added: number; removed: number }
    t.same([back.added, back.removed], [1, 3], 'the other way round')
  })

  await t.test('bad requests are clear errors', async (t) => {
    const unknown = '0'.repeat(40)
    const cases: Array<[string, number, RegExp]> = [
      [`from=${from}`, 422, /"to" is required/],
      [`from=${from}&to=abc`, 422, /"to" must be 40 hexadecimal digits/],
      [`from=${from}&to=${to}&context=-1`, 422, /"context" must be a whole number of lines from 0 to 1000/],
      [`from=${from}&to=${to}&context=1001`, 422, /"context"/],
      [`from=${unknown}&to=${to}`, 404, /no device configuration with this fingerprint/],
    ]
    for (const [query, status, message] of cases) {
      const res = await client.call('GET', `tables/management/configuration/compare?${query}`)
      t.equal(res.status, status, query)
      t.match((res.body as { message: string; detail?: string }).message + ((res.body as { detail?: string }).detail ?? ''), message, query)
    }
    t.equal((await client.call('GET', `tables/management/configuration/compare?from=${from}&to=${to}`, undefined, { accept: 'text/csv' })).status, 406)
    // two texts with nothing in common, 6000 lines apart
    const x = 'a'.repeat(40)
    const y = 'b'.repeat(40)
    for (const h of [x, y]) await db.query('INSERT INTO inventory.config_texts (hash, text, stored_at) VALUES ($1, $2, 0)', [h, Array.from({ length: 3000 }, (_, i) => `${h.slice(0, 4)} ${i}`).join('\n')])
    const big = await client.call('GET', `tables/management/configuration/compare?from=${x}&to=${y}`)
    t.equal(big.status, 422)
    t.match((big.body as { message: string }).message, /differ in more than 5000 lines .*: download both/)
    await db.query('DELETE FROM inventory.config_texts WHERE hash = ANY($1::text[])', [[x, y]])
  })
  await t.test('trigger-config-backup reads an unsaved change; the replaced text goes when no snapshot has it', async (t) => {
    device.running = `${device.running.replace(/\nend$/, '')}\nip domain name example.net\nend`
    const backup = await client.call('POST', 'discovery/trigger-config-backup', { sn: coreRow.sn })
    t.equal(backup.status, 202, backup.text)
    const job = await client.waitJob((backup.body as { jobId: string }).jobId)
    t.match(job, { status: 'done', message: new RegExp(`configuration of ${core} .* read: [0-9a-f]{40} \\(changed from ${to}, unsaved\\)`) })
    const [now] = await rows(client, 'management/configuration/saved', { snapshot: second, columns: ['hash', 'status'], filters: { sn: ['eq', coreRow.sn] } })
    t.equal(now!.status, 'unsaved')
    t.equal((await client.call('GET', `tables/management/configuration/download?hash=${to}`)).status, 404, 'the text of the replaced row: no snapshot refers to it')
    t.equal((await client.call('GET', `tables/management/configuration/download?hash=${from}`)).status, 200, 'the first snapshot still has its own')
    const kept = await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts ORDER BY hash')
    t.same(kept.rows.map((r) => r.hash), [from, String(now!.hash), String(accessRow.hash)].sort())
  })

  await t.test('removing a device from a snapshot, then deleting snapshots, removes the texts only they referred to', async (t) => {
    const texts = async () => (await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts')).rows.map((r) => r.hash)
    // the access switch's configuration is in both snapshots: removed from one, it stays
    t.equal((await client.call('DELETE', `snapshots/${id}/devices`, [accessRow.sn])).status, 204)
    t.ok((await texts()).includes(String(accessRow.hash)), 'the second snapshot still has the access switch\'s configuration')
    // unloaded snapshots keep their rows, and their texts
    t.equal((await client.call('POST', `snapshots/${second}/unload`)).status, 204)
    t.equal((await client.call('DELETE', `snapshots/${id}`)).status, 204)
    const kept = await texts()
    t.notOk(kept.includes(from), 'the core switch\'s first configuration is gone with the first snapshot')
    t.ok(kept.includes(String(accessRow.hash)), 'the access switch\'s, which the unloaded second snapshot has too, is kept')
    t.equal(kept.length, 2)
    t.equal((await client.call('POST', `snapshots/${second}/load`)).status, 204)
    t.equal((await client.call('DELETE', `snapshots/${second}/devices`, [accessRow.sn])).status, 204)
    t.notOk((await texts()).includes(String(accessRow.hash)), 'removed from the last snapshot that had it: gone')
    t.equal((await client.call('GET', `tables/management/configuration/download?hash=${String(accessRow.hash)}`)).status, 404)
    t.equal((await client.call('DELETE', `snapshots/${second}`)).status, 204)
    t.same(await texts(), [], 'no text without a snapshot')
  })
})
