/** IPv6 text ⇄ octets: the forms an address is written in, the RFC 5952 short form, and what is no address. */
import t from 'tap'
import { eui64Mac, ipv6Bytes, ipv6Text, isIpv6, isLinkLocal } from '../../src/shared/ipv6.js'

t.test('every written form parses to the same octets and prints in the short form', async (t) => {
  const forms: Array<[string, string]> = [
    ['2001:db8::1', '2001:db8::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::', 'fe80::'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2:3:4:5:6'],
    ['2001:db8::1:0:0:1', '2001:db8::1:0:0:1'],
    ['::ffff:10.0.0.1', '::ffff:a00:1'],
    ['::10.0.0.1', '::a00:1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
  ]
  for (const [text, short] of forms) {
    const bytes = ipv6Bytes(text)
    t.ok(bytes, text)
    t.equal(bytes?.length, 16, text)
    t.equal(ipv6Text(bytes!), short, text)
  }
  t.same(ipv6Bytes('2001:db8::ff01'), [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x01])
})

t.test('what is no IPv6 address', async (t) => {
  for (const text of ['', '10.0.0.1', '2001:db8::1::2', '2001:db8:1:2:3:4:5:6:7', '2001:db8:1:2:3:4:5', '12345::', 'fe80::1%eth0', '2001:db8::/64', 'g::1', '::ffff:10.0.0.256', ':::', 'host.example']) {
    t.notOk(isIpv6(text), JSON.stringify(text))
  }
})

t.test('link-local is fe80::/10', async (t) => {
  t.ok(isLinkLocal('fe80::1'))
  t.ok(isLinkLocal('febf:ffff::1'))
  t.notOk(isLinkLocal('fec0::1'))
  t.notOk(isLinkLocal('2001:db8::1'))
  t.notOk(isLinkLocal('10.0.0.1'))
})

t.test('the MAC address of a modified EUI-64 interface identifier (RFC 4291, appendix A)', async (t) => {
  t.equal(eui64Mac('fe80::e00:ff:fe04:1'), '0c:00:00:04:00:01', 'the universal/local bit inverted back')
  t.equal(eui64Mac('fe80::250:56ff:fe00:2'), '00:50:56:00:00:02')
  t.equal(eui64Mac('FE80:0000:0000:0000:0250:56FF:FE00:0002'), '00:50:56:00:00:02', 'any written form')
  t.equal(eui64Mac('2001:db8::21b:21ff:fe3c:4d5e'), '00:1b:21:3c:4d:5e', 'a global address made the same way')
  t.equal(eui64Mac('fe80::4'), null, 'a manual identifier')
  t.equal(eui64Mac('fe80::1c2a:3bff:fd00:1'), null, 'no ff:fe in the middle')
  t.equal(eui64Mac('not an address'), null)
})
