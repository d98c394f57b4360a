/** Engine dependencies for tests: snapshots resolve to themselves, rules come from a list. */
import type { Db } from '../../../src/shared/db/index.js'
import { notFound } from '../../../src/shared/errors.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'
import type { ColorRule, TableQueryDeps } from '../../../src/inventory/query/index.js'

export function testDeps(db: Db, snapshots: readonly string[], rules: (table: TableDef, reports: string | readonly string[]) => ColorRule[] = () => []): TableQueryDeps {
  return {
    db,
    limits: { maxLimit: 10000, defaultLimit: 1000, statementTimeoutMs: 10000 },
    resolveSnapshot: async (ref) => {
      if (!snapshots.includes(ref)) throw notFound()
      return ref
    },
    rulesFor: async (table, reports) => rules(table, reports),
  }
}
