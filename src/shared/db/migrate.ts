/**
 * Numbered forward migrations, one list per schema. Applied at start and by `netinv migrate`,
 * under an advisory lock so concurrent replicas do not race.
 */
import type { Db } from './types.js'

export interface Migration {
  id: number
  name: string
  sql: string
}

function lockKey(schema: string): number {
  let h = 0
  for (const ch of `netinv:${schema}`) h = (h * 31 + ch.charCodeAt(0)) | 0
  return h
}

/** Applies the pending migrations of one schema; returns the ids applied. */
export async function migrate(db: Db, schema: string, migrations: readonly Migration[]): Promise<number[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`)
  const ids = migrations.map((m) => m.id)
  if (new Set(ids).size !== ids.length || ids.some((id, i) => i > 0 && id <= ids[i - 1]!)) {
    throw new Error(`migrations of ${schema} must have unique ascending ids`)
  }
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [lockKey(schema)])
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    const done = new Set((await tx.query<{ id: number }>(`SELECT id FROM ${schema}.schema_migrations`)).rows.map((r) => r.id))
    const applied: number[] = []
    for (const m of migrations) {
      if (done.has(m.id)) continue
      for (const statement of splitStatements(m.sql)) await tx.query(statement)
      await tx.query(`INSERT INTO ${schema}.schema_migrations (id, name) VALUES ($1, $2)`, [m.id, m.name])
      applied.push(m.id)
    }
    return applied
  })
}

/** Splits migration SQL on semicolons at line ends (migrations are ours: no semicolons in strings). */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^(--[^\n]*\n?)*$/.test(s))
}
