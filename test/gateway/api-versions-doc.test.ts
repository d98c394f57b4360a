import t from 'tap'
import { readFileSync } from 'node:fs'
import { API_VERSIONS_DOC_PATH, renderApiVersions } from '../../src/gateway/api-versions-doc.js'
import { ENDPOINTS } from '../../src/shared/manifest.js'

t.test('docs/api-versions.md is generated from the manifest and up to date', async (t) => {
  const committed = readFileSync(API_VERSIONS_DOC_PATH, 'utf8')
  t.equal(committed, renderApiVersions(), 'stale: regenerate with `npm run docs`')
})

t.test('every endpoint and every version appears', async (t) => {
  const doc = renderApiVersions()
  for (const e of ENDPOINTS) {
    t.ok(doc.includes(`| \`${e.path}\` |`), e.path)
    for (const v of e.versions) t.ok(doc.includes(v.summary.replace(/\|/g, '\\|')), `${e.path} v${v.version}`)
  }
})
