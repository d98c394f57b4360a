/**
 * Import of a snapshot file, streamed: the request body is parsed line by line and each table
 * section is piped into COPY as it arrives, so a file of any size never sits in memory. A file
 * that fails halfway leaves nothing behind but the failed job's record.
 */
import { randomUUID } from 'node:crypto'
import { ApiError, invalidInput } from '../../shared/errors.js'
import { dataErrorReason } from '../../shared/db/index.js'
import { STORED_TABLES, partitionTable } from '../catalog/index.js'
import { dropSnapshotRows, loadSnapshotRows } from '../storage/index.js'
import { insertJob, jobFinished, jobProgress } from '../discovery/jobs.js'
import type { InventoryServices } from '../discovery/runner.js'
import { readLines } from './lines.js'
import { SnapshotFileReader } from './reader.js'
import { deleteSnapshotRow, insertSnapshot, updateSnapshot } from './store.js'
import { measureSnapshot } from './figures.js'

function asInputError(err: unknown, line: number): unknown {
  if (err instanceof ApiError) return err
  if (err instanceof TypeError) return invalidInput(`line ${line}: ${err.message}`)
  const reason = dataErrorReason(err)
  return reason === undefined ? err : invalidInput(`near line ${line}: ${reason}`)
}

export async function importSnapshot(svc: InventoryServices, body: AsyncIterable<Buffer>, username: string | null): Promise<{ id: string; jobId: string }> {
  const reader = new SnapshotFileReader(readLines(body, svc.config.server.uploadLimitBytes))
  const header = await reader.header()
  const id = randomUUID()
  const jobId = randomUUID()
  const now = svc.now()
  const untrack = svc.runner.track(jobId)
  try {
    return await importRows(svc, reader, header, { id, jobId, now, username })
  } finally {
    untrack()
  }
}

async function importRows(
  svc: InventoryServices,
  reader: SnapshotFileReader,
  header: Awaited<ReturnType<SnapshotFileReader['header']>>,
  job: { id: string; jobId: string; now: number; username: string | null },
): Promise<{ id: string; jobId: string }> {
  const { id, jobId, now, username } = job
  await svc.db.transaction(async (tx) => {
    await insertSnapshot(tx, {
      id,
      name: header.name,
      note: header.note,
      status: 'run',
      origin: 'import',
      settings: header.settings,
      sites: header.sites as never,
      tsStart: header.tsStart,
      tsEnd: header.tsEnd,
      creator: header.creatorUsername,
      version: header.version,
      initialVersion: header.initialVersion,
      jobId,
    })
    await insertJob(tx, { id: jobId, name: 'snapshotUpload', snapshotId: id, username, now, status: 'running', owner: svc.runner.instance })
  })
  try {
    await loadSnapshotRows(svc.db, id, reader.tables(), async (table, n) => void (await jobProgress(svc.db, jobId, 0.5, `importing ${table.path}: ${n} rows`)))
    if (!reader.finished) reader.fail('unexpected end of file (the file is truncated)')
    await reader.rest()
    await updateSnapshot(svc.db, id, { status: 'finishing' })
    for (const table of STORED_TABLES) await svc.db.query(`ANALYZE ${partitionTable(table, id)}`)
    const measures = await measureSnapshot(svc.db, id)
    await updateSnapshot(svc.db, id, {
      ...measures,
      status: 'done',
      loaded: true,
      errors: header.errors,
      counts: header.counts,
      total_dev_count: header.totalDevCount,
      licensed_dev_count: header.licensedDevCount,
      device_added_count: header.deviceAddedCount,
      device_removed_count: header.deviceRemovedCount,
      interface_count: header.interfaceCount,
      ts_change: svc.now(),
    })
    await jobFinished(svc.db, jobId, svc.now())
    return { id, jobId }
  } catch (err) {
    const mapped = asInputError(err, reader.line)
    const message = mapped instanceof Error ? mapped.message : 'import failed'
    await svc.runner.record(jobId, async () => {
      await dropSnapshotRows(svc.db, id)
      await deleteSnapshotRow(svc.db, id)
      await jobFinished(svc.db, jobId, svc.now(), `import failed: ${message}`)
    })
    throw mapped
  }
}
