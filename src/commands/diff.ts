/**
 * `netinv diff <a> <b>`: what changed from snapshot a to snapshot b. Without --table, the counts
 * of added, removed and changed rows per table (`GET snapshots/{b}/changes?against=<a>`); with
 * --table, the rows of that table marked added/removed/changed, with the old and new value of
 * every changed column (`POST tables/<path>` with `compare: {snapshot: a}`).
 */
import { TextTable, cellText } from '../client/output.js'
import { fetchTables, resolveTable, type Filter, type Row } from '../client/tables.js'
import { listOption, stringOption, UsageError, type Command, type Parsed } from './args.js'
import { clientCommand } from './client-command.js'
import type { OutputStream } from './io.js'
import { TABLE_OPTIONS, outputFormat, printTable, requestOf } from './query.js'

export const CHANGES = ['added', 'removed', 'changed'] as const

interface TableChanges {
  table: string
  added: number
  removed: number
  changed: number
}

interface Changes {
  snapshot: string
  against: string
  tables: TableChanges[]
}

/** `--change added,changed` as a filter on the rows' `change`. */
function changeFilter(p: Parsed): Filter[] {
  const wanted = listOption(p, 'change', true)
  for (const c of wanted) if (!(CHANGES as readonly string[]).includes(c)) throw new UsageError(`--change takes ${CHANGES.join(', ')}, not "${c}"`)
  if (wanted.length === 0 || wanted.length === CHANGES.length) return []
  if (wanted.length === 1) return [{ change: ['eq', wanted[0]] }]
  return [{ or: wanted.map((c) => ({ change: ['eq', c] })) }]
}

/** A cell of a compared row: `old → new` for a column that changed. */
function diffCell(row: Row, column: string): string {
  const diff = row.diff as Record<string, { old: unknown; new: unknown }> | null | undefined
  const change = diff?.[column]
  return change ? `${cellText(change.old)} → ${cellText(change.new)}` : cellText(row[column])
}

function summary(p: Parsed, changes: Changes, stdout: OutputStream): void {
  const format = outputFormat(p)
  if (format === 'json') {
    stdout.write(JSON.stringify(changes) + '\n')
    return
  }
  if (format === 'csv') {
    stdout.write('table,added,removed,changed\r\n')
    for (const t of changes.tables) stdout.write(`${t.table},${t.added},${t.removed},${t.changed}\r\n`)
    return
  }
  const shown = changes.tables.filter((t) => t.added + t.removed + t.changed > 0)
  stdout.write(`snapshot ${changes.snapshot} against ${changes.against}: ${shown.length === 0 ? 'no change' : `${shown.length} ${shown.length === 1 ? 'table' : 'tables'} changed`}\n`)
  if (shown.length === 0) return
  const table = new TextTable(['table', 'added', 'removed', 'changed'], stdout)
  table.write(shown.map((t) => ({ ...t })))
}

export const diffCommand: Command = clientCommand(
  {
    name: 'diff',
    summary: 'what changed from snapshot a to snapshot b: counts per table, or the changed rows of one table',
    description:
      'a and b are snapshot ids or $last, $prev, $lastLocked; a may be $prev for "the snapshot before b of\n' +
      'the same network". The table options apply with --table; the rows come with their change\n' +
      '(added, removed, changed) and, in text, "old → new" in every column that changed.',
    positionals: [
      { name: 'a', description: 'the earlier snapshot' },
      { name: 'b', description: 'the later snapshot' },
    ],
    options: {
      table: { type: 'string', value: 'table', description: 'the rows of this table instead of the counts' },
      change: { type: 'string', value: 'kinds', multiple: true, description: 'with --table: only rows added, removed or changed (e.g. added,removed)' },
      ...TABLE_OPTIONS,
    },
    examples: ["netinv diff '$prev' '$last'", "netinv diff '$prev' '$last' --table interfaces --columns hostname,intName,l1,l2 --change changed", "netinv diff a1 b2 --table devices --csv"],
  },
  async (p, client, io) => {
    const [a, b] = p.positionals as [string, string]
    const tableName = stringOption(p, 'table')
    if (tableName === undefined) {
      const misplaced = ['change', ...Object.keys(TABLE_OPTIONS)].filter((o) => p.values[o] !== undefined && o !== 'csv' && o !== 'json')
      if (misplaced.length > 0) throw new UsageError(`--${misplaced[0]} applies to the rows of one table: add --table <table>`)
      summary(p, await client.json<Changes>('GET', `snapshots/${encodeURIComponent(b)}/changes?against=${encodeURIComponent(a)}`), io.stdout)
      return 0
    }
    outputFormat(p)
    const table = resolveTable(await fetchTables(client), tableName)
    const { columns, body } = requestOf(p, table, changeFilter(p))
    await printTable(client, table.path, { ...body, snapshot: b, compare: { snapshot: a } }, p, io, { columns: ['change', ...columns], cell: diffCell })
    return 0
  },
)
