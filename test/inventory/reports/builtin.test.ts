import t from 'tap'
import { TABLES, findTable } from '../../../src/inventory/catalog/index.js'
import { BUILTIN_GROUPS, BUILTIN_RULES, compileRule } from '../../../src/inventory/reports/index.js'

t.test('built-in rules compile against the catalog', async (t) => {
  t.ok(BUILTIN_RULES.length >= 12, 'at least twelve rules')
  const ids = new Set(BUILTIN_RULES.map((r) => r.id))
  t.equal(ids.size, BUILTIN_RULES.length, 'unique ids')
  const tables = new Set(BUILTIN_RULES.map((r) => r.tablePath))
  for (const path of ['inventory/devices', 'inventory/interfaces', 'routing/protocols/bgp/neighbors', 'vlan/device', 'networks/routes']) {
    t.ok(tables.has(path), `rules on ${path}`)
  }
  for (const rule of BUILTIN_RULES) {
    const table = findTable(rule.tablePath)
    t.ok(table, `${rule.id}: table ${rule.tablePath}`)
    if (!table) continue
    const compiled = compileRule(table, rule)
    t.ok(compiled.checks.length > 0, `${rule.id}: has checks`)
    t.ok(rule.groups.every((g) => BUILTIN_GROUPS.some((x) => x.id === g)), `${rule.id}: known groups`)
    t.ok(rule.descriptions.general, `${rule.id}: described`)
  }
  t.ok(TABLES.length > 10)
})
