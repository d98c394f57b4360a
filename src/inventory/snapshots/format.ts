/**
 * The snapshot file format "netinv-snapshot", version 1 (docs/snapshot-format.md): UTF-8 JSON
 * lines. A header line with the snapshot's metadata, then per stored table a section line, one
 * JSON array per row (values in the section's column order), and a section end line with the
 * row count; a final line closes the file. Computed tables are not written: an import computes
 * them again from the others. Rows are written in id order, so exporting the same
 * snapshot twice, or a snapshot imported from a file, gives identical bytes.
 */
import type { Db } from '../../shared/db/index.js'
import { sourceTables, storageColumns } from '../catalog/index.js'
import { streamSnapshotRows } from '../storage/index.js'
import { snapshotFigures, type SnapshotRow } from './store.js'

export const FORMAT_NAME = 'netinv-snapshot'
export const FORMAT_VERSION = 1

/** Metadata carried in the header line (everything that is not local state like lock or load). */
export interface SnapshotHeader {
  name: string | null
  note: string | null
  settings: Record<string, unknown>
  sites: unknown[]
  errors: unknown[]
  counts: Record<string, number>
  totalDevCount: number
  licensedDevCount: number
  deviceAddedCount: number
  deviceRemovedCount: number
  interfaceCount: number
  tsStart: number
  tsEnd: number | null
  version: string
  initialVersion: string
  creatorUsername: string | null
}

export function headerOf(s: SnapshotRow): SnapshotHeader {
  return {
    name: s.name,
    note: s.note,
    settings: s.settings,
    sites: s.sites,
    errors: s.errors,
    counts: s.counts,
    ...snapshotFigures(s),
  }
}

/** Writes a snapshot file through `write` (which applies back-pressure), in chunks of whole lines. */
export async function exportSnapshot(db: Db, s: SnapshotRow, write: (text: string) => Promise<void>): Promise<void> {
  let buf = `${JSON.stringify({ format: FORMAT_NAME, version: FORMAT_VERSION, snapshot: headerOf(s) })}\n`
  const flush = async (force: boolean) => {
    if (buf.length >= 64 * 1024 || (force && buf.length > 0)) {
      const out = buf
      buf = ''
      await write(out)
    }
  }
  let total = 0
  const tables = sourceTables()
  for (const table of tables) {
    buf += `${JSON.stringify({ table: table.path, columns: storageColumns(table).map((c) => c.name) })}\n`
    let rows = 0
    await streamSnapshotRows(db, table, s.id, async (batch) => {
      for (const values of batch) buf += `${JSON.stringify(values)}\n`
      rows += batch.length
      await flush(false)
    })
    total += rows
    buf += `${JSON.stringify({ end: table.path, rows })}\n`
  }
  buf += `${JSON.stringify({ eof: true, tables: tables.length, rows: total })}\n`
  await flush(true)
}
