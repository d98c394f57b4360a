/** What every inventory request handler receives. */
import type { Logger } from 'pino'
import type { Config } from '../shared/config/index.js'
import type { Db } from '../shared/db/index.js'
import type { Principal } from '../shared/principal.js'
import type { TableDef } from './catalog/index.js'

export interface InventoryDeps {
  db: Db
  config: Readonly<Config>
  log: Logger
  /** Key that seals SNMP credentials at rest; without one, a key for this process only (with a warning). */
  credentialKey?: Buffer
  /** The tables it serves and describes (default: the whole catalog; a test serves another). */
  tables?: readonly TableDef[]
}

export interface InventoryRequest {
  deps: InventoryDeps
  log: Logger
  /** The caller, as the gateway established it (null only for internal calls in tests). */
  principal: Principal | null
  /** Endpoint version chosen by the gateway (1 when absent). */
  apiVersion: number
  /** Address generation the client used (header, original, path), as the gateway names it. */
  generation: string
  /** Parsed query string. */
  query: URLSearchParams
}
