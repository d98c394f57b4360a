/**
 * Rediscovery of some devices of a loaded snapshot (`POST snapshots/{id}/devices`), as a job
 * clients poll: the snapshot's own source produces those devices' rows again — the simulator
 * from the snapshot's settings, the network by SNMP (crawled as the snapshot's discovery was,
 * the devices' addresses added as seeds) — and they replace the old rows in one transaction. The snapshot stays
 * queryable throughout and shows the old rows until the swap. An uploaded snapshot has no source
 * to ask (409). Devices that do not answer keep their rows; the job says which.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../shared/db/index.js'
import { ApiError, invalidInput } from '../../shared/errors.js'
import { buildNetworkInTurns, isProfileName, simulate, type SimSettings } from '../simulator/index.js'
import { listCredentials, rememberedCredentials } from '../settings/credential-store.js'
import { MAX_SEEDS, MIN_SEED_PREFIX, getNetworkSettings, normaliseNetwork, type NetworkRun } from '../settings/network.js'
import { changeDevices, lockEditable, selectDevices } from '../snapshots/devices.js'
import type { DeviceSelection } from '../snapshots/device-input.js'
import type { SnapshotRow } from '../snapshots/store.js'
import { devicesIn, pickDeviceRows, type DeviceRows } from '../storage/index.js'
import { StopRequested, keepChangesSincePrevious } from './discover.js'
import { REDISCOVERY_JOBS, insertJob, jobFinished, jobProgress, stopRequest, type RediscoveryJobName } from './jobs.js'
import { AddressPolicy } from './network/address-policy.js'
import { collectNetwork } from './network/source.js'
import { knownHostKeys } from './network/ssh/host-keys.js'
import { pruneTextsAsJobEnds, storeConfigCollection } from './network/ssh/texts.js'
import { listSshCredentials } from '../settings/ssh-credential-store.js'
import type { InventoryServices } from './runner.js'

type Source = 'simulator' | 'network'

/** Where a snapshot's devices can be asked again; 409 for an uploaded snapshot. */
export function rediscoverySource(s: SnapshotRow): Source {
  if (s.origin === 'network' || s.settings.source === 'network') return 'network'
  if (s.origin === 'simulator' || (s.origin === 'clone' && isProfileName(s.settings.profile) && typeof s.settings.network === 'string')) return 'simulator'
  throw new ApiError(
    'API_CONFLICT',
    `Snapshot ${s.id} was uploaded from a file: there is no network to rediscover its devices from; remove devices with DELETE snapshots/${s.id}/devices, or start a discovery`,
  )
}

function stopped(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('stopped')
}

/** The simulated network of the snapshot's settings, those devices' rows: only their sites are modelled. */
async function simulatorRows(s: SnapshotRow, sns: ReadonlySet<string>, signal: AbortSignal): Promise<DeviceRows> {
  const settings: SimSettings = {
    profile: isProfileName(s.settings.profile) ? s.settings.profile : 'lab',
    seed: typeof s.settings.seed === 'number' ? s.settings.seed : 1,
    sites: Array.isArray(s.settings.sites) ? (s.settings.sites as string[]) : [],
    generation: typeof s.settings.generation === 'number' ? s.settings.generation : 0,
  }
  const sim = simulate(settings, await buildNetworkInTurns(settings))
  return pickDeviceRows(sim.tables((site) => site.devices.some((d) => sns.has(d.sn))), sns, () => stopped(signal))
}

/** Networks of a stored list (a snapshot's settings, which an uploaded file may fill with anything). */
function storedNetworks(list: unknown): string[] {
  return Array.isArray(list) ? list.flatMap((n) => normaliseNetwork(n) ?? []) : []
}

/**
 * What a rediscovery of a snapshot may contact: what the discovery settings of now allow,
 * within the networks the snapshot's discovery ran with.
 */
async function rediscoveryPolicy(db: Queryable, s: SnapshotRow): Promise<AddressPolicy> {
  return new AddressPolicy(await getNetworkSettings(db)).narrowed(storedNetworks(s.settings.include), storedNetworks(s.settings.exclude), `snapshot ${s.id}`)
}

/**
 * The devices at `addresses` (or with serials `sns`), collected by SNMP. A device's rows name its
 * neighbours, which only a collection that also reaches them can resolve, so the network is
 * crawled as the snapshot's discovery did (its seeds, scope and limits), the addresses added as
 * seeds; only the rows of the devices asked for are kept.
 */
async function networkRows(svc: InventoryServices, s: SnapshotRow, addresses: string[], sns: ReadonlySet<string> | null, signal: AbortSignal, taskKey: string): Promise<DeviceRows> {
  const { source: _source, ...stored } = s.settings as Record<string, unknown> & NetworkRun
  const seeds = [...new Set([...storedNetworks(stored.seeds).filter((n) => Number(n.split('/')[1]) >= MIN_SEED_PREFIX).slice(0, MAX_SEEDS), ...addresses])]
  const run: NetworkRun = { ...stored, seeds }
  const collection = await collectNetwork({
    run,
    policy: await rediscoveryPolicy(svc.db, s),
    credentials: (await listCredentials(svc.db, svc.credentialKey)).map((c) => c.credential),
    remembered: await rememberedCredentials(svc.db),
    signal,
    taskKey,
    ssh: { credentials: (await listSshCredentials(svc.db, svc.credentialKey)).map((c) => c.credential), known: await knownHostKeys(svc.db) },
  })
  stopped(signal)
  await storeConfigCollection(svc.db, collection.configs, svc.now())
  const wanted = sns ?? new Set(addresses.flatMap((a) => collection.network.byAddress.get(a)?.sn ?? []))
  return pickDeviceRows(collection.tables(), wanted, () => stopped(signal))
}

/** Checks the request, writes the job and runs it in the background; returns the job id. */
export async function startRediscovery(svc: InventoryServices, id: string, selection: DeviceSelection, username: string | null): Promise<{ jobId: string; name: RediscoveryJobName }> {
  const jobId = randomUUID()
  const name: RediscoveryJobName = selection.by === 'sn' ? 'discoveryRefresh' : 'discoveryAdd'
  const untrack = svc.runner.track(jobId)
  let snapshot: SnapshotRow
  let plan: { source: Source; addresses: string[]; sns: Set<string> }
  try {
    ;[snapshot, plan] = await svc.db.transaction(async (tx) => {
      const s = await lockEditable(tx, id)
      const source = rediscoverySource(s)
      if (source === 'network' && selection.by === 'ip') {
        // refused before anything is sent, each address named
        const policy = await rediscoveryPolicy(tx, s)
        const issues = selection.values.flatMap((ip, i) => {
          const refusal = policy.refusal(ip)
          return refusal ? [{ message: `"ipList[${i}]" ${ip} ${refusal}`, path: `ipList[${i}]` }] : []
        })
        if (issues.length > 0) throw invalidInput(issues)
      }
      const { devices, newAddresses } = await selectDevices(tx, id, selection, { allowNewAddresses: source === 'network' })
      if (source === 'network') {
        const silent = devices.filter((d) => d.loginIp === null)
        if (silent.length > 0 && selection.by === 'sn') throw new ApiError('API_CONFLICT', `Device ${silent[0]!.sn} of snapshot ${id} has no management address to rediscover it at`)
      }
      const busy = await tx.query('SELECT 1 FROM inventory.jobs WHERE snapshot_id = $1 AND name = ANY($2::text[]) AND status IN ($3, $4)', [id, REDISCOVERY_JOBS, 'scheduled', 'running'])
      if (busy.rows.length > 0) throw new ApiError('API_SNAPSHOT_BUSY', `Devices of snapshot ${id} are being rediscovered; wait for that job to end`)
      await insertJob(tx, { id: jobId, name, snapshotId: id, username, now: svc.now(), status: 'running', owner: svc.runner.instance })
      const addresses = [...devices.flatMap((d) => (d.loginIp ? [d.loginIp] : [])), ...newAddresses]
      return [s, { source, addresses, sns: new Set(devices.map((d) => d.sn)) }] as const
    })
  } catch (err) {
    untrack()
    throw err
  }
  // the texts no snapshot refers to (those of devices the crawl read and the job does not keep,
  // all it read when it ends without a change), before its end is recorded
  const pruneTexts = async () => {
    if (plan.source !== 'network') return
    await pruneTextsAsJobEnds(svc, jobId, { snapshot: id, job: jobId })
  }
  svc.runner.run(
    `rediscovery ${id}`,
    async (signal) => {
      try {
        await jobProgress(svc.db, jobId, 0.1, `${plan.source === 'network' ? 'collecting' : 'simulating'} ${plan.addresses.length || plan.sns.size} devices`)
        const rows =
          plan.source === 'network'
            ? await networkRows(svc, snapshot, plan.addresses, selection.by === 'sn' ? plan.sns : null, signal, jobId)
            : await simulatorRows(snapshot, plan.sns, signal)
        const found = devicesIn(rows)
        if (found.length === 0) throw new Error('none of the devices answered')
        const stop = await jobProgress(svc.db, jobId, 0.9, `replacing the rows of ${found.length} devices`)
        if (stop) throw new StopRequested(stop.by)
        stopped(signal)
        // a stop that comes while the rows are replaced still rolls them back, up to the commit
        await changeDevices(svc.db, id, found, rows, svc.now, async (tx) => {
          stopped(signal)
          const late = await stopRequest(tx, jobId)
          if (late) throw new StopRequested(late.by)
        })
        // the replaced rows forgot the comparisons of the snapshot: the one with its previous snapshot is kept again, in the background
        keepChangesSincePrevious(svc, id)
        const silent = [...plan.sns].filter((sn) => !found.includes(sn))
        const added = found.filter((sn) => !plan.sns.has(sn)).length
        await pruneTexts()
        const summary = `rediscovered ${found.length} devices${added > 0 ? ` (${added} new)` : ''}${silent.length > 0 ? `; not answering, rows kept: ${silent.slice(0, 20).join(', ')}` : ''}`
        // the end and what it did in one write, so a poll never sees one without the other
        await svc.db.query(`UPDATE inventory.jobs SET status = 'done', finished_at = $2, progress = 1, message = $3 WHERE id = $1`, [jobId, svc.now(), summary])
      } catch (err) {
        const reason: unknown = signal.aborted ? signal.reason : err
        const message = `rediscovery ${reason instanceof StopRequested ? reason.message : `failed: ${reason instanceof Error ? reason.message : String(reason)}`}; the snapshot is unchanged`.slice(0, 500)
        svc.log.info({ snapshot: id, job: jobId, reason: message }, 'rediscovery ended without a change')
        await svc.runner.record(jobId, async () => {
          await pruneTexts()
          await jobFinished(svc.db, jobId, svc.now(), message)
        })
      } finally {
        untrack()
      }
    },
    jobId,
  )
  return { jobId, name }
}
