/**
 * A netinv-snapshot file (docs/snapshot-format.md) written from tables of rows, for tests that
 * need a snapshot whose every row is chosen by hand: a header, one section per table (its
 * columns, then each row as a list), the end line.
 */
export type Row = Record<string, unknown>

function section(table: string, rows: Row[]): string[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  return [JSON.stringify({ table, columns }), ...rows.map((r) => JSON.stringify(columns.map((c) => r[c] ?? null))), JSON.stringify({ end: table, rows: rows.length })]
}

/** The file of a snapshot named `name` holding `tables` (table path → rows); `devices` is the number of devices it counts. */
export function snapshotFileOf(name: string, tables: Record<string, Row[]>, devices: number): string {
  const header = {
    format: 'netinv-snapshot', version: 1,
    snapshot: {
      name, note: null, settings: {}, sites: [], errors: [], counts: {}, totalDevCount: devices, licensedDevCount: devices,
      deviceAddedCount: 0, deviceRemovedCount: 0, interfaceCount: 0, tsStart: 1_700_000_000_000, tsEnd: 1_700_000_060_000, version: '1.0.0', initialVersion: '1.0.0', creatorUsername: 'alice',
    },
  }
  const lines = [JSON.stringify(header)]
  let count = 0
  for (const [table, rows] of Object.entries(tables)) {
    lines.push(...section(table, rows))
    count += rows.length
  }
  lines.push(JSON.stringify({ eof: true, tables: Object.keys(tables).length, rows: count }))
  return `${lines.join('\n')}\n`
}
