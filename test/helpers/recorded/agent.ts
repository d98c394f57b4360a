/**
 * Real SNMP agents replaying recordings: Debian's snmpsim (`snmpsimd`), one process per recorded
 * device, each on an address of its own in 127.0.0.0/8 on the SNMP port, answering the community
 * its data file is named after. The processes carry the test's owner mark (owned.ts) and die
 * with the test; their data lives in a directory of the test's own.
 */
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run } from '../../../src/lab/netns.js'
import { hasCommand } from '../requirements.js'
import { own, spawnOwned } from '../owned.js'
import { snmprec, type Varbind } from './snmprec.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** What replaying recordings needs here, or undefined when it can run. */
export function recordedAgentMissing(): string | undefined {
  const missing: string[] = []
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) missing.push('root (the SNMP port)')
  if (!hasCommand('snmpsimd', ['--help'])) missing.push('snmpsim (snmpsimd)')
  if (!hasCommand('snmpget', ['-V'])) missing.push('snmp (snmpget)')
  return missing.length === 0 ? undefined : missing.join(', ')
}

export interface RecordedAgents {
  community: string
  /** Address of each recorded device, by the name it was given. */
  address: Map<string, string>
}

/**
 * Starts one agent per recording and waits until each answers. `vlans`: the recordings of each
 * VLAN's instance of a device (by its name), answered to the community "community@vlan" as a Cisco
 * switch answers them; any other community is silence.
 */
export async function recordedAgents(
  t: Teardown,
  recordings: ReadonlyMap<string, readonly Varbind[]>,
  vlans: ReadonlyMap<string, ReadonlyMap<number, readonly Varbind[]>> = new Map(),
): Promise<RecordedAgents> {
  own()
  const dir = await mkdtemp(join(tmpdir(), `netinv-rec-${process.pid}-`))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await chmod(dir, 0o755)
  const community = `rec${randomBytes(6).toString('hex')}`
  const net = `127.${100 + (randomBytes(1)[0]! % 100)}.${randomBytes(1)[0]! % 250}`
  const address = new Map<string, string>()
  let host = 1
  for (const [name, varbinds] of recordings) {
    const ip = `${net}.${host++}`
    const data = join(dir, name, 'data')
    const cache = join(dir, name, 'cache')
    await mkdir(data, { recursive: true })
    await mkdir(cache, { recursive: true })
    await writeFile(join(data, `${community}.snmprec`), snmprec(varbinds), { mode: 0o644 })
    for (const [vlan, vbs] of vlans.get(name) ?? []) await writeFile(join(data, `${community}@${vlan}.snmprec`), snmprec(vbs), { mode: 0o644 })
    // snmpsimd drops root for nobody: its data must be readable and its cache writable by it
    await chmod(join(dir, name), 0o755)
    await chmod(data, 0o755)
    await chmod(cache, 0o777)
    const child = spawnOwned(
      'snmpsimd',
      [`--data-dir=${data}`, `--cache-dir=${cache}`, `--agent-udpv4-endpoint=${ip}:161`, '--process-user=nobody', '--process-group=nogroup', '--logging-method=null'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    child.stderr?.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)))
    t.teardown(() => {
      child.kill('SIGKILL')
    })
    address.set(name, ip)
    // the first start indexes the data file; then it answers
    for (let i = 0; ; i++) {
      try {
        await run('snmpget', ['-v2c', '-c', community, '-t', '1', '-r', '0', '-On', ip, '1.3.6.1.2.1.1.5.0'])
        break
      } catch (err) {
        if (child.exitCode !== null || i >= 60) throw new Error(`snmpsimd for ${name} on ${ip} did not answer: ${(err as Error).message} ${stderr}`, { cause: err })
      }
    }
  }
  return { community, address }
}
