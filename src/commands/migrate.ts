import { migrateInventory } from '../inventory/migrations/index.js'
import type { Command } from './index.js'
import { loadRuntime, openRuntimeDb } from './runtime.js'

export const migrateCommand: Command = {
  summary: 'apply database migrations of every schema and exit',
  async run() {
    const rt = loadRuntime('migrate')
    const db = await openRuntimeDb(rt)
    try {
      const inventory = await migrateInventory(db)
      rt.log.info({ inventory }, 'migrations applied')
    } finally {
      await db.close()
    }
    return 0
  },
}
