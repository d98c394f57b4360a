/** The stored login: where it lives, who may read it, one per address. */
import t from 'tap'
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSessionFile, removeSession, saveSession, sessionPath } from '../../src/client/session.js'
import { normalizeUrl } from '../../src/client/api.js'

const session = (username: string) => ({ username, accessToken: `a-${username}`, refreshToken: `r-${username}`, savedAt: 1 })

t.test('the path follows XDG_CONFIG_HOME, else ~/.config', async (t) => {
  t.equal(sessionPath({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/u' }), '/x/config/netinv/session.json')
  t.equal(sessionPath({ HOME: '/home/u' }), '/home/u/.config/netinv/session.json')
})

t.test('saved 0600, one login per address, the last one current', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-session-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'netinv', 'session.json')
  t.same(readSessionFile(file), { sessions: {} }, 'none yet')
  saveSession(file, 'http://a:8080', session('alice'))
  saveSession(file, 'http://b:8080', session('bob'))
  t.equal(statSync(file).mode & 0o777, 0o600)
  t.equal(statSync(join(dir, 'netinv')).mode & 0o777, 0o700)
  t.same(readSessionFile(file), { current: 'http://b:8080', sessions: { 'http://a:8080': session('alice'), 'http://b:8080': session('bob') } })
  chmodSync(file, 0o644)
  saveSession(file, 'http://a:8080', session('carol'))
  t.equal(statSync(file).mode & 0o777, 0o600, 'a file made readable by others is tightened on the next write')
  chmodSync(join(dir, 'netinv'), 0o755)
  saveSession(file, 'http://a:8080', session('carol'))
  t.equal(statSync(join(dir, 'netinv')).mode & 0o777, 0o700, 'and so is a directory that existed 0755')
  t.equal(removeSession(file, 'http://a:8080'), true)
  t.equal(removeSession(file, 'http://a:8080'), false)
  t.same(readSessionFile(file), { sessions: { 'http://b:8080': session('bob') } })
  writeFileSync(file, '{not json')
  t.throws(() => readSessionFile(file), /is not valid JSON: remove it and log in again/)
})

t.test('addresses', async (t) => {
  t.equal(normalizeUrl('http://h:8080'), 'http://h:8080')
  t.equal(normalizeUrl('http://h:8080/'), 'http://h:8080')
  t.equal(normalizeUrl('http://h:8080/api/'), 'http://h:8080')
  t.equal(normalizeUrl('https://h/netinv/api'), 'https://h/netinv')
  t.throws(() => normalizeUrl('h:8080'), /is not an http\(s\) URL/)
  t.throws(() => normalizeUrl('not a url'), /is not a URL/)
})
