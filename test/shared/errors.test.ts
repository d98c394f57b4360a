import t from 'tap'
import { ApiError, ERRORS, invalidInput, notFound, toErrorResponse } from '../../src/shared/errors.js'

t.test('every code maps to a 4xx/5xx status and a message', async (t) => {
  for (const [code, def] of Object.entries(ERRORS)) {
    t.ok(def.status >= 400 && def.status < 600, code)
    t.ok(def.message.length > 0, code)
  }
})

t.test('ApiError becomes {code, message}', async (t) => {
  const r = toErrorResponse(new ApiError('API_NOT_FOUND'))
  t.equal(r.status, 404)
  t.same(r.body, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
})

t.test('API_NOT_FOUND keeps the spec\'s message, always; what was not found goes in detail', async (t) => {
  for (const err of [new ApiError('API_NOT_FOUND', 'Job "42" not found'), notFound('Job "42" not found'), new ApiError('API_NOT_FOUND', undefined, { detail: 'Job "42" not found' })]) {
    const r = toErrorResponse(err)
    t.equal(r.status, 404)
    t.same(r.body, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found', detail: 'Job "42" not found' })
  }
  t.same(toErrorResponse(notFound()).body, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' }, 'no detail, no field')
  const other = toErrorResponse(new ApiError('API_CONFLICT', 'Built-in rules cannot be changed'))
  t.same(other.body, { code: 'API_CONFLICT', message: 'Built-in rules cannot be changed' }, 'other codes keep their own message')
})

t.test('validation errors carry the errors list clients parse', async (t) => {
  const r = toErrorResponse(invalidInput('"columns[0]" must be one of [a, b]'))
  t.equal(r.status, 422)
  t.same(r.body.errors, [{ message: '"columns[0]" must be one of [a, b]' }])
  t.equal(r.body.code, 'API_INVALID_INPUT')
})

t.test('unknown errors become a 500 that says nothing internal', async (t) => {
  const r = toErrorResponse(new Error('connection string postgres://secret@db'))
  t.equal(r.status, 500)
  t.same(r.body, { code: 'API_INTERNAL_ERROR', message: 'Internal Server Error' })
})
