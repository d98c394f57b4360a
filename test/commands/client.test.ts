/**
 * The client commands end to end: `netinv serve` in a child process, and `netinv login`,
 * `snapshots`, `discover`, `query`, `logout` talking to it over HTTP with NETINV_URL, NETINV_TOKEN
 * and the stored login. A few of them are child processes as a user runs them (the login with its
 * password on stdin, the bar on a terminal, Ctrl-C); the others run the same command line in this
 * process (netinvHere), which spares a Node start per run. Access tokens live 10 s here, so that
 * the stored login is renewed with its refresh token as the spec's client flow says.
 */
import t from 'tap'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { apiKey, call, login, newApiKey, type Reply } from '../e2e/client.js'
import { freePort, serve, tempDirs } from '../e2e/process.js'
import { netinv, netinvHere, netinvOnTty, startNetinv, tempHome } from './cli.js'
import { freshPostgres } from '../helpers/db.js'

const ADMIN_PASSWORD = 'cli-admin-password-1'
const ACCESS_TOKEN_SECONDS = 10

type Row = Record<string, unknown>

function shortAccessTokens(configDir: string): void {
  const file = join(configDir, 'api.json')
  const config = JSON.parse(readFileSync(file, 'utf8')) as { app: { accessToken: { expiresIn: number } } }
  config.app.accessToken.expiresIn = ACCESS_TOKEN_SECONDS
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o644 })
}

const table = (body: unknown, key: string, accept = 'application/json') => ({ headers: { ...apiKey(key), accept }, body })
const lines = (text: string) => text.split('\n').filter((l) => l !== '')


t.test('login, snapshots, discover, query and logout against netinv serve', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  shortAccessTokens(configDir)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url })
  const home = tempHome(t)
  const env = { HOME: home, XDG_CONFIG_HOME: home, NETINV_URL: app.url }
  const sessionFile = join(home, 'netinv', 'session.json')
  const session = () => JSON.parse(readFileSync(sessionFile, 'utf8')) as { current: string; sessions: Record<string, { refreshToken: string }> }
  // the test's own look at the API goes through an API key (access tokens expire within the test)
  const key = await newApiKey(app.url, (await login(app.url, 'admin', ADMIN_PASSWORD)).accessToken, ['read', 'write'])

  t.test('before login', async (t) => {
    const r = await netinvHere(['snapshots'], env)
    t.equal(r.code, 1)
    t.match(r.stderr, `not logged in to ${app.url}: run "netinv login" or set NETINV_TOKEN`)
  })

  t.test('login', async (t) => {
    const wrong = await netinvHere(['login', '--username', 'admin'], env, 'not-the-password\n')
    t.equal(wrong.code, 1, 'a failed login exits 1')
    t.match(wrong.stderr, /netinv login: Invalid Credentials \(HTTP 401 API_INVALID_CREDENTIALS\)/, 'with the message of the error body')
    // the real entry point: a Node process, the password on its stdin
    const r = await netinv(['login', '--username', 'admin'], env, `${ADMIN_PASSWORD}\n`)
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, `logged in to ${app.url} as admin (scopes read, settings, team, write)`)
    t.equal(statSync(sessionFile).mode & 0o777, 0o600, 'the tokens are readable by their owner only')
    t.equal(statSync(join(home, 'netinv')).mode & 0o777, 0o700)
    t.equal(session().current, app.url)
    t.type(session().sessions[app.url]?.refreshToken, 'string')
  })

  t.test('snapshots before any discovery', async (t) => {
    const r = await netinvHere(['snapshots'], env)
    t.equal(r.code, 0, r.stderr)
    t.same(lines(r.stdout).map((l) => l.split(/\s+/)), [['id', 'name', 'status', 'state', 'locked', 'devices', 'started', 'ended']], 'the header only')
  })

  let first = ''
  t.test('discover follows the job to its end with progress lines', async (t) => {
    const r = await netinvHere(['discover', '--profile', 'lab', '--name', 'first'], env)
    t.equal(r.code, 0, r.stderr)
    first = r.stdout.trim()
    t.match(first, /^[0-9a-f-]{36}$/, 'stdout is the snapshot id')
    t.match(r.stderr, `discovery of snapshot ${first} started`)
    t.match(r.stderr, /^done 100% /m, 'a plain line per step when stderr is not a terminal, the last one done')
    t.notMatch(r.stderr, /\r|\[#/, 'no bar in a file')
    const job = await call(app.url, 'GET', `/api/snapshots/${first}`, { headers: apiKey(key) })
    t.match(job.json(), { id: first, name: 'first', status: 'done' })
  })

  let second = ''
  t.test('discover on a terminal draws a bar', async (t) => {
    const r = await netinvOnTty(['discover', '--profile', 'lab', '--name', 'second'], env)
    t.equal(r.code, 0, r.stdout + r.stderr)
    t.match(r.stdout, /\r\[#+-*\] +\d+% running/, 'the bar is redrawn in place')
    t.match(r.stdout, /\[#+\] 100% done/)
    second = /^([0-9a-f-]{36})\r?$/m.exec(r.stdout)?.[1] ?? ''
    t.not(second, '', 'and the snapshot id on a line of its own')
  })

  t.test('snapshots lists both, newest first', async (t) => {
    const r = await netinvHere(['snapshots'], env)
    t.equal(r.code, 0, r.stderr)
    const rows = lines(r.stdout).slice(1).map((l) => l.split(/\s+/))
    t.same(
      rows.map((c) => [c[0], c[1], c[2]]),
      [
        [second, 'second', 'done'],
        [first, 'first', 'done'],
      ],
    )
    const json = await netinvHere(['snapshots', '--json'], env)
    t.same(lines(json.stdout).map((l) => (JSON.parse(l) as Row).id), [second, first])
  })

  t.test('the stored login is renewed with its refresh token when the access token expired', async (t) => {
    const stored = session().sessions[app.url] as { refreshToken: string; savedAt: number }
    const before = stored.refreshToken
    // the stored access token was issued before it was saved: a second past its life it has expired
    const expired = stored.savedAt + (ACCESS_TOKEN_SECONDS + 1) * 1000 - Date.now()
    if (expired > 0) await new Promise((resolve) => setTimeout(resolve, expired))
    const r = await netinvHere(['snapshots'], env)
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, first)
    const after = session().sessions[app.url]!.refreshToken
    t.not(after, before, 'the rotated refresh token is stored')
    t.equal(statSync(sessionFile).mode & 0o777, 0o600, 'still readable by its owner only')
  })

  t.test('query: columns, filters, sort and a range, as the API answers them', async (t) => {
    const body = {
      snapshot: first,
      columns: ['hostname', 'vendor', 'memoryUtilization'],
      filters: { and: [{ vendor: ['eq', 'cisco'] }, { memoryUtilization: ['gt', 50] }] },
      sort: { column: 'memoryUtilization', order: 'desc' },
      pagination: { start: 2, limit: 5 },
    }
    const api: Reply = await call(app.url, 'POST', '/api/tables/inventory/devices', table(body, key))
    const expected = api.json<{ data: Row[] }>().data
    t.equal(expected.length, 5)
    const args = ['query', 'devices', '--snapshot', first, '--columns', 'hostname,vendor', '--columns', 'memoryUtilization', '--filter', 'vendor:eq:cisco', '--filter', 'memoryUtilization:gt:50', '--sort', '-memoryUtilization', '--start', '2', '--limit', '5']
    const json = await netinvHere([...args, '--json'], env)
    t.equal(json.code, 0, json.stderr)
    t.same(lines(json.stdout).map((l) => JSON.parse(l) as Row), expected, 'the same rows as the API')
    const text = await netinvHere(args, env)
    t.equal(text.code, 0, text.stderr)
    t.same(
      lines(text.stdout).map((l) => l.split(/\s+/)),
      [['hostname', 'vendor', 'memoryUtilization'], ...expected.map((r) => [r.hostname, r.vendor, String(r.memoryUtilization)])],
      'as an aligned text table',
    )
    const sorted = await netinvHere(['query', 'inventory/devices', '--columns', 'hostname', '--sort', 'hostname:desc', '--limit', '3', '--json', '--filter', '{"or": [{"vendor": ["eq", "arista"]}, {"vendor": ["eq", "juniper"]}]}'], env)
    t.equal(sorted.code, 0, sorted.stderr)
    const api2 = await call(app.url, 'POST', '/api/tables/inventory/devices', table({ snapshot: '$last', columns: ['hostname'], filters: { or: [{ vendor: ['eq', 'arista'] }, { vendor: ['eq', 'juniper'] }] }, sort: { column: 'hostname', order: 'desc' }, pagination: { start: 0, limit: 3 } }, key))
    t.same(lines(sorted.stdout).map((l) => JSON.parse(l) as Row), api2.json<{ data: Row[] }>().data, 'a JSON filter object, $last by default')
  })

  t.test('query pages through every row', async (t) => {
    const api = await call(app.url, 'POST', '/api/tables/inventory/interfaces', table({ snapshot: first, columns: ['id'], pagination: { start: 0, limit: 1 } }, key))
    const count = api.json<{ _meta: { count: number } }>()._meta.count
    t.ok(count > 1000, `${count} interfaces: more than a page`)
    const r = await netinvHere(['query', 'interfaces', '--snapshot', first, '--columns', 'id', '--json', '--page-size', '700'], env)
    t.equal(r.code, 0, r.stderr)
    const ids = lines(r.stdout).map((l) => (JSON.parse(l) as Row).id)
    t.equal(ids.length, count, 'every row')
    t.equal(new Set(ids).size, count, 'each once')
  })

  t.test('query --csv is the CSV of the API', async (t) => {
    const body = { snapshot: first, columns: ['hostname', 'intName', 'l1', 'mtu'], filters: { l1: ['eq', 'down'] }, sort: { column: 'hostname', order: 'asc' } }
    const api = await call(app.url, 'POST', '/api/tables/inventory/interfaces', table(body, key, 'text/csv'))
    t.equal(api.status, 200)
    const r = await netinvHere(['query', 'interfaces', '--snapshot', first, '--columns', 'hostname,intName,l1,mtu', '--filter', 'l1:eq:down', '--sort', 'hostname', '--csv'], env)
    t.equal(r.code, 0, r.stderr)
    t.equal(r.stdout, api.text, 'every matching row, byte for byte')
    t.ok(lines(r.stdout).length > 2)
    const page = await netinvHere(['query', 'interfaces', '--snapshot', first, '--columns', 'hostname,intName', '--csv', '--limit', '3'], env)
    t.equal(lines(page.stdout).length, 4, 'a header and --limit rows')
  })

  t.test('query: mistakes and errors of the API', async (t) => {
    const column = await netinvHere(['query', 'interfaces', '--columns', 'hostname,bogus'], env)
    t.equal(column.code, 1)
    t.match(column.stderr, /netinv query: "columns\[1\]" must be one of \[id, sn, hostname, .*\] \(HTTP 422 API_INVALID_INPUT\)/)
    const operator = await netinvHere(['query', 'devices', '--filter', 'hostname:gt:x'], env)
    t.equal(operator.code, 2)
    t.match(operator.stderr, '"gt" compares numbers; "x" is not one')
    const typo = await netinvHere(['query', 'interfacs'], env)
    t.equal(typo.code, 2)
    t.match(typo.stderr, 'no table "interfacs" (did you mean inventory/interfaces')
    // one word that ends a path but is close to another table is not taken silently
    const ambiguous = await netinvHere(['query', 'device'], env)
    t.equal(ambiguous.code, 2)
    t.match(ambiguous.stderr, 'table "device" is ambiguous: vlan/device, inventory/devices')
    const snapshot = await netinvHere(['query', 'devices', '--snapshot', 'no-such-snapshot'], env)
    t.equal(snapshot.code, 1)
    t.match(snapshot.stderr, /netinv query: .*\(HTTP 4\d\d API_/)
    const flag = await netinvHere(['query', 'devices', '--colums', 'hostname'], env)
    t.equal(flag.code, 2)
    t.match(flag.stderr, 'netinv query: unknown option --colums (did you mean --columns?)')
    const list = await netinvHere(['query', '--tables'], env)
    t.equal(list.code, 0)
    t.match(list.stdout, /^inventory\/interfaces +Interfaces +yes$/m)
  })

  // netinv diff is tested against the comparison contract in diff.test.ts; here against the
  // service itself once it answers GET snapshots/{id}/changes (until then this part says so and skips)
  t.test('diff against the comparison API of the service', async (t) => {
    const probe = await call(app.url, 'GET', `/api/snapshots/${second}/changes?against=${first}`, { headers: apiKey(key) })
    const skip = probe.status === 404 ? `GET snapshots/{id}/changes is not served: ${probe.text}` : false
    await t.test('summary and rows as the API answers them', { skip }, async (t) => {
      t.equal(probe.status, 200, probe.text)
      const r = await netinvHere(['diff', first, second, '--json'], env)
      t.equal(r.code, 0, r.stderr)
      t.same(JSON.parse(r.stdout), probe.json(), 'the summary of the API')
      const text = await netinvHere(['diff', '$prev', second], env)
      t.equal(text.code, 0, text.stderr)
      t.match(text.stdout, new RegExp(`^snapshot ${second} against ${first}: \\d+ tables? changed\n`), 'the simulator\'s second snapshot differs a little')
      const body = { snapshot: second, compare: { snapshot: first }, columns: ['hostname', 'intName', 'l1', 'mtu'], filters: { change: ['eq', 'changed'] }, pagination: { start: 0, limit: 1000 } }
      const api = await call(app.url, 'POST', '/api/tables/inventory/interfaces', table(body, key))
      t.equal(api.status, 200, api.text)
      const rows = await netinvHere(['diff', first, second, '--table', 'interfaces', '--columns', 'hostname,intName,l1,mtu', '--change', 'changed', '--json'], env)
      t.equal(rows.code, 0, rows.stderr)
      t.same(lines(rows.stdout).map((l) => JSON.parse(l) as Row), api.json<{ data: Row[] }>().data, 'the changed rows of the API')
    })
  })

  t.test('NETINV_TOKEN: an API key wins over the stored login', async (t) => {
    const adminToken = (await login(app.url, 'admin', ADMIN_PASSWORD)).accessToken
    const readOnly = await newApiKey(app.url, adminToken, ['read'])
    const keyEnv = { ...env, NETINV_TOKEN: readOnly }
    const r = await netinvHere(['snapshots', '--json'], keyEnv)
    t.equal(r.code, 0, r.stderr)
    t.equal(lines(r.stdout).length, 2)
    const denied = await netinvHere(['discover', '--profile', 'lab'], keyEnv)
    t.equal(denied.code, 1, 'a read key cannot start a discovery')
    t.match(denied.stderr, /netinv discover: .*\(HTTP 403 API_INSUFFICIENT_RIGHTS\)/)
    const bad = await netinvHere(['snapshots'], { ...env, NETINV_TOKEN: 'nik_not-a-key' })
    t.equal(bad.code, 1)
    t.match(bad.stderr, /HTTP 401 API_INVALID_API_TOKEN/)
  })

  t.test('an API that is not there', async (t) => {
    const nobody = `http://127.0.0.1:${await freePort()}`
    const r = await netinvHere(['snapshots', '--url', nobody], { ...env, NETINV_TOKEN: 'x' })
    t.equal(r.code, 1)
    t.match(r.stderr, `netinv snapshots: cannot reach ${nobody}: ECONNREFUSED`)
  })

  t.test('logout revokes the refresh token and forgets the login', async (t) => {
    const refreshToken = session().sessions[app.url]!.refreshToken
    const r = await netinvHere(['logout'], env)
    t.equal(r.code, 0, r.stderr)
    t.match(r.stdout, `logged out of ${app.url}`)
    t.same(session().sessions, {})
    const renew = await call(app.url, 'POST', '/api/auth/token', { body: { refreshToken } })
    t.equal(renew.status, 401, 'the refresh token is revoked')
    t.equal((await netinvHere(['snapshots'], env)).code, 1, 'logged out')
  })

  t.test('Ctrl-C stops the watching of a discovery, not the discovery', async (t) => {
    const running = startNetinv(['discover', '--profile', 'lab', '--name', 'third'], { ...env, NETINV_TOKEN: key })
    while (!/started \(job [0-9a-f-]+\)\n/.test(running.stderr()) && running.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    running.child.kill('SIGINT')
    const r = await running.ran
    t.equal(r.code, 130, r.stderr)
    t.equal(r.stdout, '', 'no snapshot id: the discovery did not end here')
    const jobId = /\(job ([0-9a-f-]+)\)/.exec(r.stderr)?.[1] ?? ''
    t.match(r.stderr, `the discovery goes on: GET /api/jobs/${jobId} follows it, POST /api/jobs/${jobId}/stop stops it\n`)
    let job = { isDone: false, status: '' }
    while (!job.isDone) {
      job = (await call(app.url, 'GET', `/api/jobs/${jobId}`, { headers: apiKey(key) })).json<typeof job>()
      if (!job.isDone) await new Promise((resolve) => setTimeout(resolve, 250))
    }
    t.equal(job.status, 'done', 'the job went on to its end')
  })
})
