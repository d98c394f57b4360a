import { migrateInventory } from '../inventory/migrations/index.js'
import { migrateIdentity } from '../gateway/identity/index.js'
import type { Command } from './index.js'
import { loadRuntime, openRuntimeDb } from './runtime.js'

export const migrateCommand: Command = {
  summary: 'apply database migrations of every schema and exit',
  async run(_args, io) {
    const rt = loadRuntime('migrate', io.env)
    const db = await openRuntimeDb(rt)
    try {
      const inventory = await migrateInventory(db)
      const identity = await migrateIdentity(db)
      rt.log.info({ inventory, identity }, 'migrations applied')
    } finally {
      await db.close()
    }
    return 0
  },
}
