/** Numbered forward migrations of the "inventory" schema. */
import { migrate, type Db, type Migration } from '../../shared/db/index.js'

export const INVENTORY_MIGRATIONS: readonly Migration[] = []

export async function migrateInventory(db: Db): Promise<number[]> {
  return migrate(db, 'inventory', INVENTORY_MIGRATIONS)
}
