/**
 * How the tests of recorded devices read a table of a snapshot and hold it to its ground truth:
 * precision and recall of 1.0, with what differs named.
 */
import type { Test } from 'tap'
import type { Client } from '../../inventory/app.js'

export type Row = Record<string, unknown>

/** The rows of a table of a snapshot (up to 1,000), with the columns asked. */
export async function rows(client: Client, table: string, snapshot: string, columns: string[]): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, { snapshot, columns, pagination: { limit: 1000 } })
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

/**
 * Precision (what was found is true) and recall (what is true was found), with what differs; a
 * truth without rows would prove nothing, so the recordings must hold rows of the table.
 */
export function score(t: Test, table: string, found: readonly string[], truth: readonly string[]): void {
  const f = new Set(found)
  const want = new Set(truth)
  const right = [...f].filter((x) => want.has(x))
  t.ok(want.size > 0, `${table}: the recordings hold rows of it`)
  t.equal(f.size === 0 ? 0 : right.length / f.size, 1, `${table}: precision 1.0 (wrong: ${JSON.stringify([...f].filter((x) => !want.has(x)))})`)
  t.equal(want.size === 0 ? 1 : right.length / want.size, 1, `${table}: recall 1.0 (missed: ${JSON.stringify([...want].filter((x) => !f.has(x)))})`)
  t.equal(found.length, f.size, `${table}: no row twice`)
}
