import { readFileSync, writeFileSync } from 'node:fs'
import { generatedFiles } from '../shared/config/docs.js'
import type { Command } from './index.js'

export const docsCommand: Command = {
  summary: 'regenerate the generated parts of docs/operations.md and the Helm chart values',
  async run() {
    for (const { path, expected } of generatedFiles((p) => readFileSync(p, 'utf8'))) {
      if (readFileSync(path, 'utf8') === expected) continue
      writeFileSync(path, expected)
      console.log(`updated ${path}`)
    }
    return 0
  },
}
