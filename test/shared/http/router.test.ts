/** The services' router: patterns, 404/405, and parameters handed over percent-decoded. */
import t from 'tap'
import { ApiError } from '../../../src/shared/errors.js'
import { Router } from '../../../src/shared/http/index.js'

const router = new Router<null>().add('GET', 'snapshots/:id/changes', () => {}).add('POST', 'jobs/:id/stop', () => {})

function status(fn: () => unknown): number | undefined {
  try {
    fn()
  } catch (err) {
    return err instanceof ApiError ? err.status : undefined
  }
  return 200
}

t.test('a parameter reaches the handler as the client meant it', async (t) => {
  t.same(router.resolve('GET', 'snapshots/%24last/changes').match.params, { id: '$last' })
  t.same(router.resolve('POST', 'jobs/%E2%98%83/stop').match.params, { id: '☃' })
  t.same(router.resolve('GET', 'snapshots/$prev/changes').match.params, { id: '$prev' }, 'unencoded as it is')
  t.equal(status(() => router.resolve('GET', 'snapshots/%E2%98/changes')), 400, 'a bad escape is a malformed path')
  t.equal(status(() => router.resolve('GET', 'snapshots%2Fx/changes')), 404, 'fixed segments are not decoded')
  t.equal(status(() => router.resolve('DELETE', 'jobs/x/stop')), 405)
})
