/**
 * `POST discovery/trigger-config-backup` (`{"sn"}` or `{"ip"}`): a collection of one device's
 * running configuration now, as a `configBackup` job, without a whole discovery. The device is
 * the one with that serial or login address in the newest loaded network snapshot that has it;
 * its configuration is read over SSH as a discovery reads it (same credentials, host key check,
 * masking), the text kept, and the device's row of management/configuration/saved in that
 * snapshot replaced, so management/configuration shows a changed configuration at once.
 */
import { randomUUID } from 'node:crypto'
import { ApiError, invalidInput, notFound } from '../../shared/errors.js'
import { isIpv4 } from '../../shared/ipv4.js'
import { partitionTable } from '../catalog/index.js'
import { CONFIG_SAVED } from '../catalog/consistency.js'
import { DEVICES } from '../catalog/inventory.js'
import { forgetChanges } from '../query/change-counts.js'
import { getNetworkSettings } from '../settings/network.js'
import { listSshCredentials } from '../settings/ssh-credential-store.js'
import { lockEditable } from '../snapshots/devices.js'
import { updateSnapshot } from '../snapshots/store.js'
import { insertJob, jobFinished, jobProgress } from './jobs.js'
import { AddressPolicy } from './network/address-policy.js'
import { collectConfigs } from './network/ssh/collect.js'
import { knownHostKeys } from './network/ssh/host-keys.js'
import { pruneConfigTexts, pruneTextsAsJobEnds, storeConfigCollection } from './network/ssh/texts.js'
import { DEFAULT_SSH_TIMEOUT_MS } from './network/source.js'
import type { InventoryServices } from './runner.js'

export interface BackupTarget {
  snapshot: string
  sn: string
  hostname: string
  siteName: string
  address: string
  family: string | null
}

/** The device a request names: `{"sn"}` or `{"ip"}` (exactly one), in the newest loaded network snapshot. */
async function findDevice(svc: InventoryServices, body: { sn?: string; ip?: string }): Promise<BackupTarget> {
  const by = body.sn !== undefined ? 'sn' : 'login_ip'
  const value = body.sn ?? body.ip!
  const snapshots = await svc.db.query<{ id: string }>(
    `SELECT id FROM inventory.snapshots WHERE origin = 'network' AND status = 'done' AND loaded ORDER BY ts_start DESC, seq DESC`,
  )
  for (const s of snapshots.rows) {
    const r = await svc.db.query<{ sn: string; hostname: string; site_name: string; login_ip: string | null; family: string | null }>(
      `SELECT sn, hostname, site_name, login_ip, family FROM ${partitionTable(DEVICES, s.id)} WHERE ${by} = $1 LIMIT 1`,
      [value],
    )
    const d = r.rows[0]
    if (!d) continue
    if (d.login_ip === null) throw new ApiError('API_CONFLICT', `Device ${d.sn} has no management address to log in to`)
    return { snapshot: s.id, sn: d.sn, hostname: d.hostname, siteName: d.site_name, address: d.login_ip, family: d.family }
  }
  if (snapshots.rows.length === 0) throw new ApiError('API_CONFLICT', 'There is no loaded snapshot of a network discovery: discover the network first (POST snapshots)')
  throw notFound(`No device with ${by === 'sn' ? 'serial number' : 'login address'} ${value} in the loaded network snapshots`)
}

/** Checks the request, writes the job and runs it in the background; returns the job id. */
export async function startConfigBackup(svc: InventoryServices, body: { sn?: string; ip?: string }, username: string | null): Promise<{ jobId: string; snapshot: string; sn: string }> {
  if ((body.sn === undefined) === (body.ip === undefined)) throw invalidInput([{ message: 'give exactly one of "sn" and "ip"', path: body.sn === undefined ? 'sn' : 'ip' }])
  if (body.ip !== undefined && !isIpv4(body.ip)) throw invalidInput([{ message: `"ip" must be an IPv4 address (a network is not allowed): ${JSON.stringify(body.ip).slice(0, 60)}`, path: 'ip' }])
  const target = await findDevice(svc, body)
  const refusal = new AddressPolicy(await getNetworkSettings(svc.db)).refusal(target.address)
  if (refusal) throw invalidInput([{ message: `${target.address} (device ${target.sn}) ${refusal}`, path: body.sn !== undefined ? 'sn' : 'ip' }])
  const credentials = (await listSshCredentials(svc.db, svc.credentialKey)).map((c) => c.credential)
  if (credentials.length === 0) throw new ApiError('API_CONFLICT', 'No SSH credential is configured: add one with POST settings/ssh')
  const limits = (await getNetworkSettings(svc.db)).limits
  const jobId = randomUUID()
  const untrack = svc.runner.track(jobId)
  try {
    await insertJob(svc.db, { id: jobId, name: 'configBackup', snapshotId: target.snapshot, username, now: svc.now(), status: 'running', owner: svc.runner.instance })
  } catch (err) {
    untrack()
    throw err
  }
  svc.runner.run(
    `configuration backup ${target.sn}`,
    async (signal) => {
      try {
        await jobProgress(svc.db, jobId, 0.1, `reading the configuration of ${target.hostname} (${target.address})`)
        const c = await collectConfigs({
          targets: [target],
          credentials,
          known: await knownHostKeys(svc.db),
          timeoutMs: limits.sshTimeoutMs ?? DEFAULT_SSH_TIMEOUT_MS,
          concurrency: 1,
          signal,
        })
        await storeConfigCollection(svc.db, c, svc.now())
        const failure = c.failures[0]
        const config = c.configs[0]
        if (failure || !config) throw new Error(failure ? failure.message : `no SSH credential is offered to ${target.address}`)
        const table = partitionTable(CONFIG_SAVED, target.snapshot)
        const before = await svc.db.transaction(async (tx) => {
          await lockEditable(tx, target.snapshot)
          const old = await tx.query<{ hash: string }>(`DELETE FROM ${table} WHERE sn = $1 RETURNING hash`, [target.sn])
          await tx.query(`INSERT INTO ${table} (snapshot_id, id, sn, hostname, site_name, hash, status) VALUES ($1, $2, $2, $3, $4, $5, $6)`, [target.snapshot, target.sn, target.hostname, target.siteName, config.hash, config.status])
          await updateSnapshot(tx, target.snapshot, { ts_change: svc.now() })
          await forgetChanges(tx, target.snapshot)
          return old.rows[0]?.hash ?? null
        })
        // the text the row had, if no snapshot refers to it any more
        if (before !== null && before !== config.hash) await pruneConfigTexts(svc.db, [before], svc.now())
        const what = before === config.hash ? 'unchanged' : before === null ? 'first read' : `changed from ${before}`
        await svc.db.query(`UPDATE inventory.jobs SET status = 'done', finished_at = $2, progress = 1, message = $3 WHERE id = $1`, [
          jobId,
          svc.now(),
          `configuration of ${target.hostname} (${target.sn}) read: ${config.hash} (${what}${config.status === null ? '' : `, ${config.status}`})`,
        ])
      } catch (err) {
        const message = `configuration backup of ${target.hostname} (${target.address}) failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500)
        svc.log.info({ job: jobId, sn: target.sn, reason: message }, 'configuration backup failed')
        // the text it read and could not put in the snapshot
        await svc.runner.record(jobId, async () => {
          await pruneTextsAsJobEnds(svc, jobId, { job: jobId })
          await jobFinished(svc.db, jobId, svc.now(), message)
        })
      } finally {
        untrack()
      }
    },
    jobId,
  )
  return { jobId, snapshot: target.snapshot, sn: target.sn }
}
