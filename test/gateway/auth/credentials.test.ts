import t from 'tap'
import { parseBasic, readCredentials } from '../../../src/gateway/auth/credentials.js'
import { readCookie, setCookie } from '../../../src/gateway/auth/cookies.js'

const basic = (s: string) => `Basic ${Buffer.from(s, 'utf8').toString('base64')}`

t.test('Basic per RFC 7617: UTF-8, the password may contain colons', async (t) => {
  t.same(readCredentials({ authorization: basic('jürgen:pa:ss:wörd') }), { kind: 'basic', username: 'jürgen', password: 'pa:ss:wörd' })
  t.same(readCredentials({ authorization: basic('u:') }), { kind: 'basic', username: 'u', password: '' })
  t.same(readCredentials({ authorization: `bAsIc   ${Buffer.from('a:b').toString('base64')}` }), { kind: 'basic', username: 'a', password: 'b' })
  t.throws(() => parseBasic(Buffer.from('nocolon').toString('base64')), { code: 'API_INVALID_CREDENTIALS' })
  t.throws(() => parseBasic(Buffer.from(':pw').toString('base64')), { code: 'API_INVALID_CREDENTIALS' })
  t.throws(() => parseBasic('%%%'), { code: 'API_INVALID_CREDENTIALS' })
  t.throws(() => parseBasic(Buffer.from([0x75, 0x3a, 0xff, 0xfe]).toString('base64')), { code: 'API_INVALID_CREDENTIALS' }, 'not UTF-8')
})

t.test('precedence and schemes', async (t) => {
  t.same(readCredentials({}), null)
  t.same(readCredentials({ 'x-api-token': 'k', authorization: 'Bearer x' }), { kind: 'apiKey', key: 'k' })
  t.same(readCredentials({ authorization: 'Bearer abc', cookie: 'accessToken=zzz' }), { kind: 'bearer', token: 'abc' })
  t.same(readCredentials({ cookie: 'a=1; accessToken=zzz; b=2' }), { kind: 'cookie', token: 'zzz' })
  t.throws(() => readCredentials({ authorization: 'Digest username="x"' }), { code: 'API_UNAUTHORIZED' })
  t.throws(() => readCredentials({ authorization: 'Bearer' }), { code: 'API_INVALID_ACCESS_TOKEN' })
  t.throws(() => readCredentials({ 'x-api-token': '  ' }), { code: 'API_INVALID_API_TOKEN' })
})

t.test('cookies', async (t) => {
  t.equal(readCookie('x=1; refreshToken="a%20b"', 'refreshToken'), 'a b')
  t.equal(readCookie(undefined, 'x'), undefined)
  t.equal(
    setCookie('refreshToken', 'v', { path: '/api/auth/token', maxAgeSeconds: 60, secure: true }),
    'refreshToken=v; Path=/api/auth/token; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
  )
  t.match(setCookie('accessToken', '', { path: '/', maxAgeSeconds: 0, secure: false }), /Max-Age=0; HttpOnly; SameSite=Strict; Expires=Thu, 01 Jan 1970/)
})
