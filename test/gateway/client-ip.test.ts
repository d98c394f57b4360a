import t from 'tap'
import { clientKey, normalizeIp, resolveClientIp, trustedProxies } from '../../src/gateway/client-ip.js'

t.test('socket address unless the peer is trusted', async (t) => {
  const none = trustedProxies([])
  t.equal(resolveClientIp('10.0.0.1', '1.1.1.1', none), '10.0.0.1')
  const lb = trustedProxies(['10.0.0.0/8', '2001:db8:ffff::1'])
  t.equal(resolveClientIp('10.0.0.1', '1.1.1.1, 2.2.2.2', lb), '2.2.2.2')
  t.equal(resolveClientIp('10.0.0.1', '1.1.1.1, 2.2.2.2, 10.9.9.9', lb), '2.2.2.2', 'trusted hops are skipped from the right')
  t.equal(resolveClientIp('10.0.0.1', ['1.1.1.1', '10.1.1.1'], lb), '1.1.1.1', 'repeated headers join')
  t.equal(resolveClientIp('10.0.0.1', undefined, lb), '10.0.0.1')
  t.equal(resolveClientIp('10.0.0.1', 'garbage, 2.2.2.2', lb), '2.2.2.2')
  t.equal(resolveClientIp('10.0.0.1', '2.2.2.2, garbage', lb), '10.0.0.1', 'an invalid hop stops the walk at the last trusted one')
  t.equal(resolveClientIp('10.0.0.1', '10.0.0.2, 10.0.0.3', lb), '10.0.0.2', 'all trusted: the leftmost')
  t.equal(resolveClientIp('::ffff:10.0.0.1', '3.3.3.3', lb), '3.3.3.3', 'IPv4-mapped peers match IPv4 ranges')
  t.equal(resolveClientIp('2001:db8:ffff::1', '2001:db8:1::5', lb), '2001:db8:1::5')
})

t.test('normalisation and /64 grouping', async (t) => {
  t.equal(normalizeIp('::FFFF:192.0.2.1'), '192.0.2.1')
  t.equal(normalizeIp('fe80::1%eth0'), 'fe80::1')
  t.equal(clientKey('192.0.2.1'), '192.0.2.1')
  t.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
  t.equal(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64', 'same /64, same key')
  t.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64')
  t.equal(clientKey('::1'), '0:0:0:0::/64')
})
