/**
 * `netinv path` against the real inventory service holding the hand-made network of
 * test/inventory/path-lookup/network.ts. In front of it, in place of the gateway, a forwarder
 * that adds the internal header the gateway would (the gateway itself is tested elsewhere): the
 * hops as a table, the ECMP branches as a tree, the way back flagged asymmetric, the exit status
 * of a path that is not delivered, and usage errors.
 */
import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../../src/shared/principal.js'
import { freshDb } from '../helpers/db.js'
import { ALICE, SECRET, startApp } from '../inventory/app.js'
import { HOSTS, HOSTS6, snapshotFile } from '../inventory/path-lookup/network.js'
import { netinvHere as netinv } from './cli.js'

t.test('netinv path', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const up = await api.call('POST', 'snapshots/upload', snapshotFile(), { 'content-type': 'application/x-ndjson' })
  t.equal(up.status, 201, up.text)
  const forwarder = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const init: RequestInit = { method: req.method!, headers: { [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: encodePrincipal(ALICE), apiVersion: 1, generation: 'header' }), 'content-type': 'application/json' } }
      if (chunks.length > 0) init.body = Buffer.concat(chunks)
      void fetch(`${api.url}${req.url!}`, init).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' })
        res.end(Buffer.from(await r.arrayBuffer()))
      })
    })
  })
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => forwarder.close(resolve)))
  const env = { NETINV_URL: `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`, NETINV_TOKEN: 'nik_test', HOME: '/nonexistent' }

  const ok = await netinv(['path', HOSTS.h1, HOSTS.h2], env)
  t.equal(ok.code, 0, ok.stderr)
  const out = ok.stdout
  t.match(out, /^path 10\.1\.1\.10 → 10\.2\.2\.10 \(enters at R1 Gi0\/0: host gateway\)\n/)
  t.match(out, /#\s+device\s+layer\s+in\s+out\s+decided by\n1\s+R1\s+routed\s+Gi0\/0\s+Gi0\/1\s+route 10\.2\.2\.0\/24 ospf via 10\.0\.12\.2 \(1 of 2\), ARP 0c00\.0002\.0000\n/)
  t.match(out, /SW1\s+switched\s+Gi1\/24\s+Gi1\/2\s+MAC 0050\.5600\.0002 vlan 10 on Gi1\/2/)
  t.match(out, /├─ R1 Gi0\/0 → Gi0\/1\n│ {2}└─ R2 Gi0\/0 → Gi0\/1\n│ {5}└─ R4 Gi0\/1 → Gi0\/0\n│ {8}└─ SW1 Gi1\/24 → Gi1\/2\n│ {11}└─ ✓ delivered: /, 'the tree: one ECMP branch')
  t.match(out, /└─ R1 Gi0\/0 → Gi0\/2\n {3}└─ R3 Gi0\/0 → Gi0\/1\n/, 'the tree: the other')
  t.match(out, /return path 10\.2\.2\.10 → 10\.1\.1\.10/)
  t.notMatch(out, /asymmetric/, 'the way back (R4 > R2 > R1) is the reverse of one way there')
  t.match(out, /symmetric: the way back crosses the same routers/)

  const dropped = await netinv(['path', HOSTS.h1, '10.9.1.1', '--one-way'], env)
  t.equal(dropped.code, 3, 'a branch not delivered: exit 3')
  t.match(dropped.stdout, /└─ ✗ blackhole: 10\.9\.0\.0\/16 is a blackhole route on R1/)
  t.notMatch(dropped.stdout, /return path/)

  const json = await netinv(['path', HOSTS.h2, HOSTS.h1, '--json'], env)
  const both = JSON.parse(json.stdout) as { forward: { branches: unknown[] }; back: { branches: unknown[] } }
  t.equal(both.forward.branches.length, 1)
  t.equal(both.back.branches.length, 2, 'the way back from h1 fans out over r2 and r3')
  const asym = await netinv(['path', HOSTS.h2, HOSTS.h1], env)
  t.match(asym.stdout, /asymmetric: the way back crosses R1 > R3 > R4, not the routers of the way there/)

  const bad = await netinv(['path', '10.1.1', HOSTS.h2], env)
  t.equal(bad.code, 2)
  t.match(bad.stderr, /<src> must be an IPv4 or IPv6 address, not "10\.1\.1"/)
  const mixed = await netinv(['path', HOSTS.h1, HOSTS6.h2], env)
  t.equal(mixed.code, 2)
  t.match(mixed.stderr, /<src> and <dst> must be addresses of one family, not IPv4 "10\.1\.1\.10" and IPv6 "2001:db8:2::10"/)

  const six = await netinv(['path', HOSTS6.h1, HOSTS6.h2], env)
  t.equal(six.code, 0, six.stderr)
  t.match(six.stdout, /^path 2001:db8:1::10 → 2001:db8:2::10 \(enters at R1 Gi0\/0: host gateway\)\n/, 'h1 is an IPv6 end host: it enters at its gateway')
  t.match(six.stdout, /1\s+R1\s+routed\s+Gi0\/0\s+Gi0\/1\s+route 2001:db8:2::\/64 ospfv3 via 2001:db8:12::2 \(1 of 2\), ND 0c00\.0002\.0000\n/)
  t.match(six.stdout, /R2\s+routed\s+Gi0\/0\s+Gi0\/1\s+route 2001:db8:2::\/64 ospfv3 via fe80::4\n/, 'a link-local next hop')
  t.match(six.stdout, /return path 2001:db8:2::10 → 2001:db8:1::10/)
  const proto = await netinv(['path', HOSTS.h1, HOSTS.h2, '--protocol', 'sctp'], env)
  t.equal(proto.code, 2)
  const unknown = await netinv(['path', '192.0.2.1', HOSTS.h2], env)
  t.equal(unknown.code, 1)
  t.match(unknown.stderr, /netinv path: "parameters\.startingPoint" 192\.0\.2\.1 is not in the snapshot/)
})
