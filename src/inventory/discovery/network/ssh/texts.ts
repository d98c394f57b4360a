/**
 * Configuration texts by fingerprint (`inventory.config_texts`): each masked text is kept once,
 * however many snapshots and devices have it; `tables/management/configuration/download`
 * reads them. The SSH side of a collection is stored with them (the host keys first seen).
 *
 * A text is kept while a row of management/configuration/saved of any snapshot (loaded or not)
 * has its fingerprint: when the last one goes (the snapshot deleted, the device removed from
 * it or read again), the text goes too (`pruneConfigTexts`). Storing a text marks it with the
 * time (`stored_at`), also when it was kept already, so that a text a running job has just read
 * is never taken for an orphan before the job's rows are in place.
 *
 * A job that stores texts and then ends without rows that refer to them (a discovery that fails
 * or is stopped, a rediscovery whose crawl read devices it does not keep) removes them as it
 * ends (`pruneOrphanConfigTexts`), before its end is recorded: a client that sees the job ended
 * finds no text left behind. It removes every unreferenced text, not only its own: one that an
 * earlier job left while this one was running (and so kept) goes with it.
 */
import type { Logger } from 'pino'
import type { Queryable } from '../../../../shared/db/index.js'
import { partitionName, partitionTable } from '../../../catalog/index.js'
import { inventoryRelation } from '../../../catalog/columns.js'
import { CONFIG_SAVED } from '../../../catalog/consistency.js'
import { recordHostKeys } from './host-keys.js'
import type { ConfigCollection } from './collect.js'

export async function storeConfigTexts(db: Queryable, texts: ReadonlyArray<{ hash: string; text: string }>, now: number): Promise<void> {
  for (const t of texts) {
    await db.query('INSERT INTO inventory.config_texts (hash, text, stored_at) VALUES ($1, $2, $3) ON CONFLICT (hash) DO UPDATE SET stored_at = greatest(inventory.config_texts.stored_at, EXCLUDED.stored_at)', [t.hash, t.text, now])
  }
}

/** Keeps what an SSH collection found: the texts, and the host keys seen for the first time. */
export async function storeConfigCollection(db: Queryable, c: ConfigCollection, now: number): Promise<void> {
  await storeConfigTexts(db, c.configs, now)
  await recordHostKeys(db, c.newHostKeys, now)
}

/** The text of a fingerprint, or null when none is kept. */
export async function configText(db: Queryable, hash: string): Promise<string | null> {
  const r = await db.query<{ text: string }>('SELECT text FROM inventory.config_texts WHERE hash = $1', [hash])
  return r.rows[0]?.text ?? null
}

/** The fingerprints a snapshot's rows of management/configuration/saved hold (of devices `sns`, or all). */
export async function snapshotConfigHashes(db: Queryable, snapshotId: string, sns: readonly string[] | null = null): Promise<string[]> {
  const table = partitionTable(CONFIG_SAVED, snapshotId)
  const exists = await db.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [table])
  if (!exists.rows[0]?.e) return []
  const r = sns === null ? await db.query<{ hash: string }>(`SELECT DISTINCT hash FROM ${table} WHERE hash IS NOT NULL`) : await db.query<{ hash: string }>(`SELECT DISTINCT hash FROM ${table} WHERE hash IS NOT NULL AND sn = ANY($1::text[])`, [[...sns]])
  return r.rows.map((x) => x.hash)
}

/** Partitions of management/configuration/saved that exist, attached (loaded) or not. */
async function configPartitions(db: Queryable): Promise<string[]> {
  const prefix = partitionName(CONFIG_SAVED, '00000000-0000-0000-0000-000000000000').replace(/0{32}$/, '')
  const r = await db.query<{ name: string }>(
    "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relkind = 'r' AND left(c.relname, $1) = $2",
    [prefix.length, prefix],
  )
  const shape = new RegExp(`^${prefix}[0-9a-f]{32}$`)
  return r.rows.map((x) => x.name).filter((n) => shape.test(n))
}

/**
 * Texts stored at this time or later are kept: the start of the oldest running job (other than
 * `ending`, the job that asks as it ends), or after `now` when none runs.
 */
async function keptSince(db: Queryable, now: number, ending: string | null): Promise<number> {
  const running = await db.query<{ since: string | null }>("SELECT min(started_at)::text AS since FROM inventory.jobs WHERE status = 'running' AND id IS DISTINCT FROM $1", [ending])
  const since = running.rows[0]?.since
  return Math.min(now + 1, since === null || since === undefined ? now + 1 : Number(since))
}

/**
 * Removes the texts of `candidates` that no snapshot's row refers to any more; returns how many.
 * A text stored since the oldest running job started (other than `ending`), or after this call
 * began, is kept: that job may be about to load the rows that refer to it.
 */
export async function pruneConfigTexts(db: Queryable, candidates: readonly string[], now: number, ending: string | null = null): Promise<number> {
  if (candidates.length === 0) return 0
  return pruneStoredBefore(db, candidates, await keptSince(db, now, ending))
}

/** Removes the texts of `candidates` stored before `since` that no snapshot's row refers to; returns how many. */
async function pruneStoredBefore(db: Queryable, candidates: readonly string[], since: number): Promise<number> {
  if (candidates.length === 0) return 0
  const wanted = [...new Set(candidates)]
  const partitions = await configPartitions(db)
  const referenced = new Set<string>()
  // a few hundred partitions at a time: one statement over all of them could get too long
  for (let i = 0; i < partitions.length; i += 200) {
    const union = partitions
      .slice(i, i + 200)
      .map((p) => `SELECT hash FROM ${inventoryRelation(p)} WHERE hash = ANY($1::text[])`)
      .join(' UNION ')
    for (const row of (await db.query<{ hash: string }>(union, [wanted])).rows) referenced.add(row.hash)
  }
  const orphans = wanted.filter((h) => !referenced.has(h))
  if (orphans.length === 0) return 0
  const r = await db.query('DELETE FROM inventory.config_texts WHERE hash = ANY($1::text[]) AND stored_at < $2', [orphans, since])
  return r.rowCount
}

/**
 * Removes every text no snapshot's row refers to (outside the running jobs' protection, as
 * `pruneConfigTexts`); returns how many. `ending`: the job that calls it as it ends, whose own
 * texts are not protected by its start.
 */
export async function pruneOrphanConfigTexts(db: Queryable, now: number, ending: string | null = null): Promise<number> {
  const since = await keptSince(db, now, ending)
  const stored = await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts WHERE stored_at < $1', [since])
  return pruneStoredBefore(db, stored.rows.map((r) => r.hash), since)
}

/**
 * `pruneOrphanConfigTexts` as job `jobId` ends (before its end is recorded): a failure is logged
 * with `bindings` and does not stop the job's end from being recorded.
 */
export async function pruneTextsAsJobEnds(svc: { db: Queryable; log: Logger; now(): number }, jobId: string, bindings: Record<string, unknown>): Promise<void> {
  await pruneOrphanConfigTexts(svc.db, svc.now(), jobId).catch((err: unknown) => svc.log.warn({ err, ...bindings }, 'could not remove the configuration texts no snapshot refers to'))
}
