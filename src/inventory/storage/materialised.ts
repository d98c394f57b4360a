/**
 * A snapshot's materialised tables (`catalog/materialised.ts`) kept in step with its rows:
 * computed and attached in the transaction that attaches the rows, computed again in the
 * transaction that changes them, detached and dropped with them, computed at start for loaded
 * snapshots that lack them. Until a snapshot's partition is attached, the table is read by its
 * SQL, so it is never wrong, only slower.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import {
  MATERIALISED_PREFIX,
  attachMaterialisedSql,
  buildMaterialisedSql,
  detachMaterialisedSql,
  materialisedParentName,
  materialisedParentSql,
  materialisedPartitionName,
  materialisedTables,
  recomputeMaterialisedSql,
} from '../catalog/materialised.js'
import { attachRelations, detachRelations, relationState, relationsOf, type SnapshotRelation } from './snapshot-relations.js'

/** Serialises the creation of the parents between services starting at once. */
const PARENTS_LOCK = 'inventory.materialised'

/** How long a parent no table names any more stays (empty) for the services of the release before. */
export const RETIRED_PARENT_MS = 24 * 3600_000

/**
 * Creates the parent of every materialised table that has none (shaped by its SQL, which needs
 * the migrations applied), and retires the parents no table names any more (a release changed
 * the SQL). Returns the names created. Run at start, after the migrations.
 *
 * A retired parent loses its partitions at once, and stays, empty, for a day before it is
 * dropped: in a rolling update the services of the release before still name it in their
 * statements, and, with nothing attached there, read those tables by their SQL.
 */
export async function ensureMaterialisedParents(db: Db, now = Date.now()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [PARENTS_LOCK])
    const created: string[] = []
    const current = new Set<string>()
    for (const table of materialisedTables()) {
      const name = materialisedParentName(table)
      current.add(name)
      if ((await relationState(tx, name)).exists) continue
      for (const sql of materialisedParentSql(table)) await tx.query(sql)
      created.push(name)
    }
    const stale = await tx.query<{ relname: string; relkind: string; parent: string | null; note: string | null }>(
      `SELECT c.relname, c.relkind, p.relname AS parent, obj_description(c.oid, 'pg_class') AS note
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
        WHERE n.nspname = 'inventory' AND c.relname LIKE $1 AND c.relkind IN ('p', 'r')`,
      [`${MATERIALISED_PREFIX.replace(/_/g, '\\_')}%`],
    )
    for (const { relname, relkind, parent, note } of stale.rows) {
      if (current.has(relkind === 'p' ? relname : (parent ?? relname.split('_s_')[0]!))) continue
      if (relkind === 'r') await tx.query(`DROP TABLE IF EXISTS inventory.${relname}`)
      else if (note?.startsWith(RETIRED) !== true) await tx.query(`COMMENT ON TABLE inventory.${relname} IS '${RETIRED}${now}'`)
      else if (Number(note.slice(RETIRED.length)) <= now - RETIRED_PARENT_MS) await tx.query(`DROP TABLE IF EXISTS inventory.${relname}`)
    }
    return created
  })
}

/** How a retired parent's comment begins, followed by the time it was retired (ms). */
const RETIRED = 'retired at '

/** A snapshot's materialised tables, one relation each. */
export function materialisedOf(snapshotId: string): SnapshotRelation[] {
  return relationsOf(
    materialisedTables(),
    { name: materialisedPartitionName, build: buildMaterialisedSql, attach: attachMaterialisedSql, detach: detachMaterialisedSql, recompute: recomputeMaterialisedSql },
    snapshotId,
  )
}

/**
 * Attaches a snapshot's materialised tables, computing those it lacks from its rows, which must
 * be attached in `tx` (`attachSnapshot`) or before (`backfillComputed`). Returns how many it
 * computed.
 */
export function attachMaterialised(tx: Queryable, snapshotId: string): Promise<number> {
  return attachRelations(tx, materialisedOf(snapshotId))
}

/** Detaches a snapshot's materialised tables with its rows (`detachSnapshot`). */
export function detachMaterialised(tx: Queryable, snapshotId: string): Promise<void> {
  return detachRelations(tx, materialisedOf(snapshotId))
}

/** Drops a snapshot's materialised tables, attached or not, also those of parents no table names any more. */
export async function dropMaterialised(db: Queryable, snapshotId: string): Promise<void> {
  const left = await db.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relkind = 'r' AND c.relname LIKE $1`,
    [`${MATERIALISED_PREFIX.replace(/_/g, '\\_')}%\\_s\\_${snapshotId.replace(/-/g, '')}`],
  )
  for (const { relname } of left.rows) await db.query(`DROP TABLE IF EXISTS inventory.${relname}`)
}
