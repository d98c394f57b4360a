import t from 'tap'
import { readFileSync } from 'node:fs'
import { ERRORS } from '../../src/shared/errors.js'
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../../src/shared/errors-doc.js'

t.test('docs/errors.md is what the error table renders (run `npm run docs`)', async (t) => {
  t.equal(readFileSync(ERRORS_DOC_PATH, 'utf8'), renderErrorsDoc())
})

t.test('every code of the table appears in the document, and no other', async (t) => {
  const doc = renderErrorsDoc()
  const listed = [...doc.matchAll(/`(API_[A-Z_]+)`/g)].map((m) => m[1])
  t.same(new Set(listed), new Set(Object.keys(ERRORS)))
})
