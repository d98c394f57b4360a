/**
 * Configurations over SSH, against real routers: a lab of two FRR routers whose namespaces run
 * Debian's sshd (a private configuration, port and host key; the lab's user gets vtysh). A
 * discovery reads each router's running configuration, masks its secrets before it is stored
 * and fills management/configuration; the text is downloaded by its fingerprint. A changed host
 * key and a wrong password are errors of that device only; `discovery/trigger-config-backup`
 * reads one device again and a changed configuration shows as a new version.
 */
import t from 'tap'
import { labMissing, sshMissing } from '../../../../src/lab/index.js'
import { generatedTopology } from '../../../../src/lab/generate.js'
import { freshPostgres } from '../../../helpers/db.js'
import { testLab } from '../../../helpers/lab.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

const PORT = 2222
const PASSWORD = 'lab-ssh-Pa55'
const OSPF_KEY = 'ospfK3yS3cret'
const VTY_PASSWORD = 'vtyPassw0rdX'

async function discover(client: Client): Promise<{ id: string; job: Record<string, unknown> }> {
  const r = await client.call('POST', 'snapshots', {})
  if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
  const { id, jobId } = r.body as { id: string; jobId: string }
  return { id, job: await client.waitJob(jobId) }
}

async function rows(client: Client, table: string, body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const r = await client.call('POST', `tables/${table}`, body)
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Array<Record<string, unknown>> }).data
}

const missing = labMissing() ?? sshMissing() ?? undefined

testNeeding(t, 'configurations of real routers read over SSH, masked, kept and compared', missing, async (t) => {
  const topo = generatedTopology(2, 223)
  const lab = await testLab(t, topo)
  for (const r of ['g1', 'g2']) {
    await lab.configure(r, [`interface eth1`, `ip ospf authentication-key ${OSPF_KEY}`, 'exit', `password ${VTY_PASSWORD}`])
  }
  const g1 = await lab.startSsh('g1', { port: PORT, password: PASSWORD })
  await lab.startSsh('g2', { port: PORT, password: PASSWORD })
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 2000, retries: 2, sshTimeoutMs: 8000 } })).status, 200)
  const created = await client.call('POST', 'settings/ssh', { name: 'lab-ssh', user: g1.user, password: PASSWORD, port: PORT })
  t.equal(created.status, 201, created.text)
  t.match(created.body, { name: 'lab-ssh', user: g1.user, port: PORT, password: '********', privateKey: null })
  t.notOk(JSON.stringify((await client.call('GET', 'settings/ssh')).body).includes(PASSWORD), 'the password is never returned')
  const good = (created.body as { id: string }).id
  let secondId = ''

  const first = await discover(client)
  t.equal(first.job.status, 'done', JSON.stringify(first.job))
  const devices = await rows(client, 'inventory/devices', { snapshot: first.id, columns: ['sn', 'hostname', 'loginIp'], sort: { column: 'hostname', order: 'asc' } })
  t.same(devices.map((d) => d.hostname), ['g1', 'g2'], JSON.stringify(await rows(client, 'discovery/connectivity-report', { snapshot: first.id, columns: ['ip', 'result', 'error', 'source'] })))
  const [d1, d2] = devices as [{ sn: string; hostname: string; loginIp: string }, { sn: string; hostname: string; loginIp: string }]
  const saved1 = await rows(client, 'management/configuration/saved', { snapshot: first.id, columns: ['sn', 'hostname', 'hash', 'status'], sort: { column: 'hostname', order: 'asc' } })
  t.same(saved1.map((r) => r.hostname), ['g1', 'g2'], 'both routers have a configuration')
  t.same(saved1.map((r) => r.status), [null, null], 'vtysh shows no startup configuration: whether it was saved is not known')

  await t.test('the text is downloadable by its fingerprint, secrets masked before storage', async (t) => {
    for (const row of saved1) {
      const r = await client.call('GET', `tables/management/configuration/download?hash=${String(row.hash)}`)
      t.equal(r.status, 200)
      const text = r.text
      t.match(text, new RegExp(`hostname ${String(row.hostname)}`), 'the router\'s own configuration')
      t.match(text, /router ospf/)
      t.match(text, /ip ospf authentication-key \*{8}/)
      t.match(text, /password \*{8}/)
      t.notOk(text.includes(OSPF_KEY) || text.includes(VTY_PASSWORD), 'no secret in the text')
    }
    const stored = await db.query<{ text: string }>('SELECT text FROM inventory.config_texts')
    t.equal(stored.rows.length, 2)
    t.notOk(stored.rows.some((r) => r.text.includes(OSPF_KEY) || r.text.includes(VTY_PASSWORD)), 'nor in the database')
    const versions = await rows(client, 'management/configuration', { columns: ['sn', 'hash', 'snapshotCount'] })
    t.equal(versions.length, 2)
    t.equal((await client.call('GET', `tables/management/configuration/download?hash=${'0'.repeat(40)}`)).status, 404)
    const keys = (await client.call('GET', 'settings/ssh/host-keys')).body as Array<{ address: string; fingerprint: string }>
    t.same(keys.find((k) => k.address === d1.loginIp)?.fingerprint, g1.fingerprint, 'the host key recorded on first contact is the one sshd has')
  })

  await t.test('a changed host key and a wrong password are errors of their device; the discovery goes on', async (t) => {
    const rekeyed = await lab.rekeySsh('g1')
    t.not(rekeyed, g1.fingerprint)
    t.equal((await client.call('PATCH', `settings/ssh/${good}`, { networks: [`${d1.loginIp}/32`] })).status, 200)
    t.equal((await client.call('POST', 'settings/ssh', { name: 'wrong', user: g1.user, password: 'not-the-password', port: PORT, networks: [`${d2.loginIp}/32`] })).status, 201)
    const second = await discover(client)
    secondId = second.id
    t.equal(second.job.status, 'done', JSON.stringify(second.job))
    t.same(await rows(client, 'management/configuration/saved', { snapshot: second.id, columns: ['sn'] }), [], 'no configuration read')
    const report = await rows(client, 'discovery/connectivity-report', { snapshot: second.id, columns: ['ip', 'result', 'error'] })
    const line = (ip: string) => report.find((r) => r.ip === ip)
    t.equal(report.length, 2, JSON.stringify(report))
    t.match(line(d1.loginIp), { result: 'ok', error: /configuration: lab-ssh: host key of .* changed/ })
    t.match(line(d2.loginIp), { result: 'ok', error: /configuration: SSH login refused: wrong: user ".*" was refused \(password\)/ })
    const snap = (await client.call('GET', `snapshots/${second.id}`)).body as { errors: Array<{ errorType: string; count: number }> }
    t.same(snap.errors.filter((e) => e.errorType.startsWith('SSH_')), [
      { errorType: 'SSH_AUTHENTICATION', count: 1 },
      { errorType: 'SSH_HOST_KEY_CHANGED', count: 1 },
    ])
    const keys = (await client.call('GET', 'settings/ssh/host-keys')).body as Array<{ address: string; fingerprint: string }>
    t.equal(keys.find((k) => k.address === d1.loginIp)?.fingerprint, g1.fingerprint, 'the recorded key is kept, never replaced silently')
    t.equal((await client.call('DELETE', `settings/ssh/host-keys/${d1.loginIp}`)).status, 204, 'an operator forgets it')
  })

  await t.test('trigger-config-backup reads one device now; a change shows as a new version', async (t) => {
    await lab.configure('g1', ['ip prefix-list CHANGED seq 5 permit 10.0.0.0/8'])
    const r = await client.call('POST', 'discovery/trigger-config-backup', { sn: d1.sn })
    t.equal(r.status, 202, r.text)
    const { jobId, snapshot } = r.body as { jobId: string; snapshot: string }
    t.equal(snapshot, secondId, 'the newest network snapshot that has the device')
    const job = await client.waitJob(jobId)
    // the newest snapshot read no configuration of g1 (its host key had changed)
    t.match(job, { name: 'configBackup', status: 'done', message: /configuration of g1 .* read: [0-9a-f]{40} \(first read\)/ })
    const saved = await rows(client, 'management/configuration/saved', { snapshot, columns: ['sn', 'hash'], filters: { sn: ['eq', d1.sn] } })
    t.equal(saved.length, 1)
    t.not(saved[0]!.hash, saved1[0]!.hash, 'another fingerprint than the first discovery\'s')
    const text = await client.call('GET', `tables/management/configuration/download?hash=${String(saved[0]!.hash)}`)
    t.match(text.text, /ip prefix-list CHANGED seq 5 permit 10\.0\.0\.0\/8/)
    const versions = await rows(client, 'management/configuration', { columns: ['sn', 'hash'], filters: { sn: ['eq', d1.sn] } })
    t.equal(versions.length, 2, 'two versions of g1\'s configuration')
    const cmp = await client.call('GET', `tables/management/configuration/compare?from=${String(saved1[0]!.hash)}&to=${String(saved[0]!.hash)}`)
    t.equal(cmp.status, 200, cmp.text)
    const d = cmp.body as { identical: boolean; added: number; diff: string }
    t.equal(d.identical, false)
    t.match(d.diff, /^\+ip prefix-list CHANGED seq 5 permit 10\.0\.0\.0\/8$/m, 'the line the operator added, as a line of the unified diff')
    t.equal(d.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length, d.added)
    t.equal((await client.call('POST', 'discovery/trigger-config-backup', { ip: '10.223.99.99' })).status, 404)
    t.equal((await client.call('POST', 'discovery/trigger-config-backup', { sn: d1.sn, ip: d1.loginIp })).status, 422)
  })
})
