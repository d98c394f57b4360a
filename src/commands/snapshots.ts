/** `netinv snapshots [--json]`: the snapshots of the API (`GET snapshots`), newest first. */
import { TextTable } from '../client/output.js'
import type { Row } from '../client/tables.js'
import { flag, type Command } from './args.js'
import { clientCommand } from './client-command.js'

const COLUMNS = ['id', 'name', 'status', 'state', 'locked', 'devices', 'started', 'ended'] as const

const time = (ms: unknown): string => (typeof ms === 'number' ? new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z') : '')

export const snapshotsCommand: Command = clientCommand(
  {
    name: 'snapshots',
    summary: 'list the snapshots: id, name, status, devices, start and end',
    options: { json: { type: 'boolean', description: 'print the answer of GET snapshots as JSON, one snapshot per line' } },
  },
  async (p, client, io) => {
    const list = await client.json<Row[]>('GET', 'snapshots')
    const newest = [...list].sort((a, b) => Number(b.tsStart ?? 0) - Number(a.tsStart ?? 0))
    if (flag(p, 'json')) {
      for (const s of newest) io.stdout.write(JSON.stringify(s) + '\n')
      return 0
    }
    const table = new TextTable(COLUMNS, io.stdout)
    table.write(
      newest.map((s) => ({ ...s, devices: s.totalDevCount, started: time(s.tsStart), ended: time(s.tsEnd) })),
    )
    table.end()
    return 0
  },
)
