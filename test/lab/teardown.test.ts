/**
 * A lab whose builder crashed is found by its name prefix and removed whole: namespaces (a
 * switch's too), every process that ran in them, the management link and its route.
 */
import t from 'tap'
import { existsSync } from 'node:fs'
import { once } from 'node:events'
import { labMissing, staleLabs, teardown } from '../../src/lab/index.js'
import { run } from '../../src/lab/netns.js'
import { labPrefix, spawnOwned } from '../helpers/owned.js'
import { testNeeding } from '../helpers/requirements.js'

testNeeding(t, 'a crashed builder leaves a lab that teardown by prefix removes whole', labMissing() ?? undefined, async (t) => {
  const prefix = labPrefix()
  t.teardown(() => teardown(prefix))
  const child = spawnOwned(process.execPath, ['--import', 'tsx', new URL('./builder.ts', import.meta.url).pathname, prefix], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (b: Buffer) => (out += String(b)))
  while (!out.includes('up')) {
    if (child.exitCode !== null) throw new Error(`the builder exited with ${child.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const namespaces = (await run('ip', ['netns', 'list'])).split('\n').map((l) => l.split(' ')[0]!).filter((n) => n.startsWith(`${prefix}-`))
  t.same(namespaces.sort(), [`${prefix}-g1`, `${prefix}-g2`, `${prefix}-h1`, `${prefix}-s1`])
  const pids = (await Promise.all(namespaces.map((ns) => run('ip', ['netns', 'pids', ns])))).join(' ').split(/\s+/).filter(Boolean)
  t.ok(pids.length >= 12, `snmpd, zebra, ospfd, bgpd and lldpd run in each router, snmpd and lldpd in the switch (${pids.length} processes)`)
  child.kill('SIGKILL')
  await once(child, 'exit')
  t.ok(pids.every((p) => existsSync(`/proc/${p}`)), 'the lab outlives its builder')
  t.ok((await staleLabs()).includes(prefix), 'and is known as stale')
  t.same(await teardown(prefix), { namespaces: 4, processes: pids.length })
  t.ok(pids.every((p) => !existsSync(`/proc/${p}`)), 'every process is gone')
  const left = (await run('ip', ['netns', 'list'])).split('\n').filter((l) => l.startsWith(`${prefix}-`))
  t.same(left, [], 'every namespace is gone')
  t.equal((await run('ip', ['-4', 'route', 'show', '10.215.0.0/16'])).trim(), '', 'the route to the lab is gone')
  t.notOk((await staleLabs()).includes(prefix))
})
