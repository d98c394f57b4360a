import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { generatedFiles } from '../shared/config/docs.js'
import { TABLES } from '../inventory/catalog/index.js'
import { renderTablesDoc } from '../inventory/query/index.js'
import type { Command } from './index.js'

export const docsCommand: Command = {
  summary: 'regenerate the generated parts of docs/operations.md, docs/tables.md and the Helm chart values',
  async run() {
    const tables = { path: 'docs/tables.md', expected: renderTablesDoc(TABLES) }
    for (const { path, expected } of [...generatedFiles((p) => readFileSync(p, 'utf8')), tables]) {
      if (existsSync(path) && readFileSync(path, 'utf8') === expected) continue
      writeFileSync(path, expected)
      console.log(`updated ${path}`)
    }
    return 0
  },
}
