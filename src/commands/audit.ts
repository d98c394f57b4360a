/**
 * `netinv audit verify`: walks the audit trail's hash chain in the database (DATABASE_URL or
 * DATA_DIR) from its anchor and names the first event that was altered, removed or reordered.
 * Exit 0 when the chain holds, 1 when it is broken.
 */
import { AuditStore } from '../gateway/audit/index.js'
import { migrateIdentity } from '../gateway/identity/index.js'
import { defineCommand, UsageError, type Command } from './args.js'
import { loadRuntime, openRuntimeDb } from './runtime.js'

export const auditCommand: Command = defineCommand(
  {
    name: 'audit',
    summary: 'audit verify',
    description: 'Checks the hash chain of the audit trail in the database and names the first event that was altered, removed or reordered.',
    positionals: [{ name: 'action', description: 'verify' }],
    options: {},
  },
  async (p, io) => {
    const [action] = p.positionals as [string]
    if (action !== 'verify') throw new UsageError(`unknown action "${action}"; the action is verify`)
    const rt = loadRuntime('netinv-audit', io.env)
    const db = await openRuntimeDb(rt)
    try {
      await migrateIdentity(db)
      const result = await new AuditStore(db).verify()
      if (result.ok) {
        io.stdout.write(`audit trail intact: ${result.checked} events verified; head: event ${result.head.seq}, hash ${result.head.hash}\n`)
        return 0
      }
      io.stdout.write(`audit trail BROKEN at event ${result.seq}: ${result.problem} (${result.checked} events before it verified)\n`)
      return 1
    } finally {
      await db.close()
    }
  },
)
