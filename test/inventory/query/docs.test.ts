import t from 'tap'
import { readFileSync } from 'node:fs'
import { TABLES } from '../../../src/inventory/catalog/index.js'
import { renderTablesDoc } from '../../../src/inventory/query/index.js'

t.test('docs/tables.md is generated from the catalog', async (t) => {
  const current = readFileSync(new URL('../../../docs/tables.md', import.meta.url), 'utf8')
  t.equal(current, renderTablesDoc(TABLES), 'stale: run `npm run docs`')
  for (const table of TABLES) t.ok(current.includes(`\`${table.path}\``), table.path)
})
