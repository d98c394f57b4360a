/** The PostgreSQL type of each column type (see `ColumnType`). */
import type { ColumnType } from './types.js'

export const STORAGE_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'text',
  integer: 'bigint',
  number: 'double precision',
  boolean: 'boolean',
  timestamp: 'bigint',
  ip: 'inet',
  network: 'cidr',
  mac: 'text',
  stringArray: 'text[]',
  integerArray: 'bigint[]',
  ipArray: 'inet[]',
  json: 'jsonb',
}
