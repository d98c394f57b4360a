/** Registers every inventory route; each area owns its own module. */
import type { Router } from '../../shared/http/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'

export interface RoutesLifecycle {
  /** Stops background work (discovery jobs) and releases resources. */
  close(): Promise<void>
}

export async function registerRoutes(_router: Router<InventoryRequest>, _deps: InventoryDeps): Promise<RoutesLifecycle> {
  return { close: async () => {} }
}
