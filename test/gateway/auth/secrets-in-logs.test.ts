/** A whole login / refresh / API-key / Basic / logout flow at log level trace: no secret in any line. */
import t from 'tap'
import { basic, createUser, login, startGateway, ADMIN_PASSWORD } from '../handlers/helper.js'

t.test('no secret reaches the logs', async (t) => {
  const gw = await startGateway(t)
  const password = 'S3cret:Passw0rd-unique-7781'
  await createUser(gw, { username: 'logger', password, scope: ['read', 'write'] })
  const secrets = [ADMIN_PASSWORD, password]

  const { body } = await login(gw, 'logger', password)
  secrets.push(body.accessToken as string, body.refreshToken as string)
  const failed = await login(gw, 'logger', 'wrong-password-998877')
  t.equal(failed.res.status, 401)
  secrets.push('wrong-password-998877')

  const r = await gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: body.refreshToken } })
  const rotated = (await r.json()) as { accessToken: string; refreshToken: string }
  secrets.push(rotated.accessToken, rotated.refreshToken)

  const k = await gw.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: `Bearer ${rotated.accessToken}` }, json: { scope: ['read'] } })
  const { token } = (await k.json()) as { token: string }
  secrets.push(token)
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': token } })).status, 200)
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': `${token}x` } })).status, 401)
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('logger', password) } })).status, 200)
  t.equal((await gw.fetch('/api/snapshots', { headers: { cookie: `accessToken=${rotated.accessToken}` } })).status, 200)
  const out = await gw.fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${rotated.accessToken}` } })
  t.equal(out.status, 200)
  await gw.auth.close() // flushes usage, the last thing that could log
  // Access lines are written every 50 ms: a later timer fires after that flush.
  await new Promise((r) => setTimeout(r, 100))

  const logs = gw.logs
  t.ok(logs.length > 10, `${logs.length} log lines captured`)
  for (const secret of secrets) {
    const leaks = logs.filter((line) => line.includes(secret) || line.includes(encodeURIComponent(secret)))
    t.same(leaks, [], `secret of length ${secret.length} not logged`)
  }
  // the Basic header value, base64 of the secret
  const b64 = Buffer.from(`logger:${password}`).toString('base64')
  t.same(logs.filter((l) => l.includes(b64)), [])
})
