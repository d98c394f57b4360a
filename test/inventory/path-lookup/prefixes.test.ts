/**
 * The candidate networks of a longest-prefix match, and the match itself in PostgreSQL: the
 * most specific of the routes that contain an address wins, in either family, a default route
 * (0.0.0.0/0, ::/0) only when nothing else does.
 */
import t from 'tap'
import { canonical, containingNetworks, family } from '../../../src/inventory/path-lookup/prefixes.js'
import { freshDb } from '../../helpers/db.js'

t.test('IPv4: 33 candidates, /32 to /0', async (t) => {
  const nets = containingNetworks('10.1.2.3')
  t.equal(nets.length, 33)
  t.same(nets.slice(0, 3), ['10.1.2.3/32', '10.1.2.2/31', '10.1.2.0/30'])
  t.ok(nets.includes('10.1.2.0/24'))
  t.ok(nets.includes('10.0.0.0/8'))
  t.equal(nets[32], '0.0.0.0/0')
})

t.test('IPv6: 129 candidates, /128 to ::/0, each with no bit right of its prefix', async (t) => {
  const nets = containingNetworks('2001:db8:a:b:1:2:3:4')
  t.equal(nets.length, 129)
  t.same(nets.slice(0, 3), ['2001:db8:a:b:1:2:3:4/128', '2001:db8:a:b:1:2:3:4/127', '2001:db8:a:b:1:2:3:4/126'])
  t.ok(nets.includes('2001:db8:a:b:1:2:3:0/125'))
  t.ok(nets.includes('2001:db8:a:b::/64'))
  t.ok(nets.includes('2001:db8:a::/48'))
  t.ok(nets.includes('2001:db8::/32'))
  t.ok(nets.includes('2000::/3'))
  t.equal(nets[128], '::/0')
  t.same(nets.map((n) => Number(n.split('/')[1])), Array.from({ length: 129 }, (_, i) => 128 - i), 'longest first')
  t.same(containingNetworks('2001:db8::ffff').slice(0, 17).map((n) => n.split('/')[0]), [
    '2001:db8::ffff', '2001:db8::fffe', '2001:db8::fffc', '2001:db8::fff8', '2001:db8::fff0', '2001:db8::ffe0', '2001:db8::ffc0', '2001:db8::ff80',
    '2001:db8::ff00', '2001:db8::fe00', '2001:db8::fc00', '2001:db8::f800', '2001:db8::f000', '2001:db8::e000', '2001:db8::c000', '2001:db8::8000', '2001:db8::',
  ])
  t.throws(() => containingNetworks('2001:db8::/64'))
})

t.test('family and the form PostgreSQL writes', async (t) => {
  t.equal(family('10.0.0.1'), 4)
  t.equal(family('2001:DB8::1'), 6)
  t.equal(family('10.0.0.1/32'), null)
  t.equal(family('fe80::1%eth0'), null)
  t.equal(canonical('2001:0DB8:0:0::01'), '2001:db8::1')
  t.equal(canonical('10.0.0.1'), '10.0.0.1')
})

t.test('the match in PostgreSQL: the candidates find the longest route containing the address', async (t) => {
  const db = await freshDb(t, 'pglite')
  await db.query('CREATE TEMP TABLE r (network cidr, name text)')
  await db.query(`INSERT INTO r VALUES ('::/0', 'default'), ('2001:db8::/32', 'aggregate'), ('2001:db8:1::/48', 'site'), ('2001:db8:1:2::/64', 'vlan'),
    ('2001:db8:1:2::99/128', 'host'), ('2001:db8:1:3::/64', 'other vlan'), ('0.0.0.0/0', 'v4 default'), ('10.1.0.0/16', 'v4 site'), ('10.1.2.0/24', 'v4 vlan')`)
  const best = async (ip: string) =>
    (await db.query<{ name: string; network: string }>('SELECT name, network::text AS network FROM r WHERE network = ANY($1::cidr[]) ORDER BY masklen(network) DESC LIMIT 1', [containingNetworks(ip)])).rows[0]
  t.same(await best('2001:db8:1:2::99'), { name: 'host', network: '2001:db8:1:2::99/128' }, '/128 wins over its /64')
  t.same(await best('2001:db8:1:2::98'), { name: 'vlan', network: '2001:db8:1:2::/64' }, 'the /64 beside its /128')
  t.same(await best('2001:db8:1:4::1'), { name: 'site', network: '2001:db8:1::/48' })
  t.same(await best('2001:db8:ffff::1'), { name: 'aggregate', network: '2001:db8::/32' })
  t.same(await best('2001:db9::1'), { name: 'default', network: '::/0' }, 'the default only when nothing else contains it')
  t.same(await best('10.1.2.3'), { name: 'v4 vlan', network: '10.1.2.0/24' }, 'IPv4 candidates never match IPv6 routes and the other way')
  t.same(await best('10.2.0.1'), { name: 'v4 default', network: '0.0.0.0/0' })
  for (const ip of ['2001:db8:1:2::99', '2001:db8:1:4::1']) {
    const text = await db.query<{ n: string }>('SELECT unnest($1::cidr[])::text AS n', [containingNetworks(ip)])
    t.same(text.rows.map((x) => x.n), containingNetworks(ip), 'PostgreSQL writes each candidate as prefixes.ts does')
  }
})
