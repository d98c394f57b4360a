/**
 * A discovery of the real network: crawl with SNMP from the seeds (progress in the job: devices
 * done, queued and failed), remember which credential worked per address, then load the rows
 * like any other source. A stop request (from this or another replica, through the job row)
 * ends it with nothing loaded.
 */
import { partitionTable } from '../catalog/index.js'
import { DEVICES } from '../catalog/inventory.js'
import { listCredentials, rememberCredentials, rememberedCredentials } from '../settings/credential-store.js'
import { listSshCredentials } from '../settings/ssh-credential-store.js'
import { AddressPolicy } from './network/address-policy.js'
import { knownHostKeys } from './network/ssh/host-keys.js'
import { pruneTextsAsJobEnds, storeConfigCollection } from './network/ssh/texts.js'
import { collectNetwork, NETWORK_TABLES, type NetworkCollection, type NetworkRun } from './network/source.js'
import { loadAndFinish, openDiscovery, recordFailure, StopRequested, type OpenedDiscovery } from './discover.js'
import { jobProgress, jobStarted } from './jobs.js'
import type { InventoryServices } from './runner.js'

export interface NetworkDiscoveryRequest {
  run: NetworkRun
  name: string | null
  note: string | null
  username: string | null
}

/** Progress writes at most this often; each also reads a stop request of the job. */
const PROGRESS_EVERY_MS = 500

/** Serials of the devices of the latest finished network snapshot before this one. */
async function previousDevices(svc: InventoryServices, id: string): Promise<Set<string> | null> {
  const r = await svc.db.query<{ id: string }>(
    `SELECT id FROM inventory.snapshots WHERE origin = 'network' AND status = 'done' AND id <> $1 ORDER BY ts_end DESC NULLS LAST, seq DESC LIMIT 1`,
    [id],
  )
  const prev = r.rows[0]?.id
  if (!prev) return null
  try {
    const rows = await svc.db.query<{ sn: string }>(`SELECT sn FROM ${partitionTable(DEVICES, prev)}`)
    return new Set(rows.rows.map((x) => x.sn))
  } catch {
    return null // the previous snapshot's rows were deleted meanwhile
  }
}

export async function startNetworkDiscovery(svc: InventoryServices, req: NetworkDiscoveryRequest): Promise<OpenedDiscovery> {
  const key = svc.credentialKey
  const credentials = (await listCredentials(svc.db, key)).map((c) => c.credential)
  const sshCredentials = (await listSshCredentials(svc.db, key)).map((c) => c.credential)
  const d = await openDiscovery(svc, { origin: 'network', settings: { source: 'network', ...req.run }, sites: [], name: req.name, note: req.note, username: req.username })
  svc.runner.run(
    `discovery ${d.id}`,
    async (signal) => {
      let collection: NetworkCollection | undefined
      // the texts no snapshot refers to: this job's when it ended without its rows, or an earlier job's it kept while it ran
      const pruneTexts = () => pruneTextsAsJobEnds(svc, d.jobId, { snapshot: d.id })
      try {
        await jobStarted(svc.db, d.jobId, svc.now())
        let last = 0
        let writing = false
        collection = await collectNetwork({
          run: req.run,
          // the run is the discovery settings of now (POST snapshots, the schedule)
          policy: new AddressPolicy(req.run),
          credentials,
          remembered: await rememberedCredentials(svc.db),
          signal,
          taskKey: d.jobId,
          ssh: { credentials: sshCredentials, known: await knownHostKeys(svc.db) },
          onProgress: (p) => {
            const now = Date.now()
            if (writing || now - last < PROGRESS_EVERY_MS) return
            last = now
            writing = true
            const fraction = (p.done / Math.max(1, p.done + p.queued)) * 0.8
            jobProgress(svc.db, d.jobId, fraction, `collecting: ${p.devices} devices, ${p.queued} queued, ${p.failed} failed`)
              .then((stop) => {
                if (stop) svc.runner.stop(d.jobId, new StopRequested(stop.by))
              })
              .catch((err: unknown) => svc.log.warn({ err }, 'could not record discovery progress'))
              .finally(() => (writing = false))
          },
        })
        if (signal.aborted) throw signal.reason
        const found = collection
        await rememberCredentials(
          svc.db,
          found.network.crawl.attempts.filter((a) => a.credentialId !== null && (a.result === 'ok' || a.result === 'duplicate')).map((a) => ({ address: a.address, credentialId: a.credentialId! })),
          svc.now(),
        )
        // texts before rows: a fingerprint in a loaded snapshot always has its text
        await storeConfigCollection(svc.db, found.configs, svc.now())
        await loadAndFinish(svc, d, found.tables(), NETWORK_TABLES.length, 0.8, signal, async () => {
          const before = await previousDevices(svc, d.id)
          const now = new Set(found.network.devices.map((x) => x.sn))
          return {
            counts: {},
            added: before ? [...now].filter((sn) => !before.has(sn)).length : 0,
            removed: before ? [...before].filter((sn) => !now.has(sn)).length : 0,
            sites: found.sites,
            errors: found.errors,
          }
        })
        await pruneTexts()
      } catch (err) {
        await recordFailure(svc, d, signal, err, collection?.errors ?? [], pruneTexts)
      } finally {
        d.untrack()
      }
    },
    d.jobId,
  )
  return d
}
