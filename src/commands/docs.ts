/** `netinv docs`: rewrites every generated document from its source of truth (tests fail when one is stale). */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { generatedFiles } from '../shared/config/docs.js'
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../shared/errors-doc.js'
import { API_VERSIONS_DOC_PATH, renderApiVersions } from '../gateway/api-versions-doc.js'
import { TABLES } from '../inventory/catalog/index.js'
import { renderTablesDoc } from '../inventory/query/index.js'
import type { Command } from './index.js'
import { CLI_DOC_PATH, renderCliDoc } from './help.js'

export const docsCommand: Command = {
  summary: 'regenerate the generated documents (tables, errors, API versions, configuration, command line) and Helm values',
  async run(_args, io) {
    // the command table holds this command: read it when run, not when loaded
    const { commands } = await import('./index.js')
    const files = [
      ...generatedFiles((p) => readFileSync(p, 'utf8')),
      { path: 'docs/tables.md', expected: renderTablesDoc(TABLES) },
      { path: ERRORS_DOC_PATH, expected: renderErrorsDoc() },
      { path: API_VERSIONS_DOC_PATH, expected: renderApiVersions() },
      { path: CLI_DOC_PATH, expected: renderCliDoc(commands) },
    ]
    for (const { path, expected } of files) {
      if (existsSync(path) && readFileSync(path, 'utf8') === expected) continue
      writeFileSync(path, expected)
      io.stdout.write(`updated ${path}\n`)
    }
    return 0
  },
}
