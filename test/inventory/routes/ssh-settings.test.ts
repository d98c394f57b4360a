/**
 * SSH credentials through the API: checked (a user and a password or a private key ssh2 can
 * parse), sealed at rest, masked in every answer, a mask sent back keeps the secret; the host
 * key list and the configuration backup trigger refuse what they cannot do with a clear error.
 */
import t from 'tap'
import { generateKeyPairSync } from 'node:crypto'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { listSshCredentials } from '../../../src/inventory/settings/ssh-credential-store.js'

const PASSWORD = 'ssh-password-never-shown'

t.test('SSH credentials: validated, sealed, masked', async (t) => {
  const db = await freshDb(t, 'pglite')
  const key = Buffer.alloc(32, 3)
  const api = await startApp(t, db, {}, { credentialKey: key })
  const bad = await api.call('POST', 'settings/ssh', { name: 'x', port: 0, privateKey: 'not a key', extra: 1 })
  t.equal(bad.status, 422)
  t.match(JSON.stringify(bad.body), /port.*between 1 and 65535/)
  t.match(JSON.stringify(bad.body), /extra.*is not allowed/)
  const none = await api.call('POST', 'settings/ssh', { user: 'ops' })
  t.equal(none.status, 422)
  t.match(none.body, { message: /"password" or "privateKey" is required/ })
  const wrongKey = await api.call('POST', 'settings/ssh', { user: 'ops', privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n' })
  t.equal(wrongKey.status, 422)
  t.match(wrongKey.body, { message: /"privateKey" is not a private key ssh2 can use/ })

  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
  const withKey = await api.call('POST', 'settings/ssh', { user: 'netops', privateKey: pem, networks: ['10.1.0.0/16'] })
  t.equal(withKey.status, 201, withKey.text)
  t.match(withKey.body, { user: 'netops', port: 22, password: null, privateKey: '********', passphrase: null, networks: ['10.1.0.0/16'], position: 1 })
  const withPassword = await api.call('POST', 'settings/ssh', { user: 'admin', password: PASSWORD, position: 1 })
  t.equal(withPassword.status, 201)
  t.match(withPassword.body, { position: 1, password: '********' })
  const id = (withPassword.body as { id: string }).id
  const list = await api.call('GET', 'settings/ssh')
  t.same((list.body as Array<{ user: string }>).map((c) => c.user), ['admin', 'netops'])
  t.notOk(list.text.includes(PASSWORD) || list.text.includes('PRIVATE KEY'), 'secrets never leave')
  const raw = await db.query<{ secret: string }>('SELECT secret FROM inventory.ssh_credentials')
  t.notOk(raw.rows.some((r) => r.secret.includes(PASSWORD)), 'sealed at rest')
  t.equal((await api.call('PATCH', `settings/ssh/${id}`, { password: '********', name: 'renamed' })).status, 200)
  const stored = (await listSshCredentials(db, key)).find((c) => c.credential.id === id)!.credential
  t.match(stored, { name: 'renamed', password: PASSWORD }, 'a mask sent back keeps the secret')
  t.equal((await api.call('PATCH', `settings/ssh/${id}`, { password: null })).status, 422, 'nothing left to log in with')
  t.equal((await api.call('DELETE', `settings/ssh/${id}`)).status, 204)
  t.equal((await api.call('DELETE', `settings/ssh/${id}`)).status, 404)

  t.same((await api.call('GET', 'settings/ssh/host-keys')).body, [])
  t.equal((await api.call('DELETE', 'settings/ssh/host-keys/10.0.0.1')).status, 404)
  t.equal((await api.call('DELETE', 'settings/ssh/host-keys/not-an-address')).status, 422)

  t.equal((await api.call('POST', 'discovery/trigger-config-backup', {})).status, 422)
  t.equal((await api.call('POST', 'discovery/trigger-config-backup', { ip: '10.0.0.0/24' })).status, 422)
  const noSnapshot = await api.call('POST', 'discovery/trigger-config-backup', { sn: 'ABC' })
  t.equal(noSnapshot.status, 409)
  t.match(noSnapshot.body, { message: /no loaded snapshot of a network discovery/i })
  const download = await api.call('GET', `tables/management/configuration/download?hash=${'a'.repeat(40)}`)
  t.equal(download.status, 404)
})
