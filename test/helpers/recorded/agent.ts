/**
 * Real SNMP agents replaying recordings: Debian's snmpsim (`snmpsimd`), one process per recorded
 * device, each on an address of its own in 127.0.0.0/8 on the SNMP port, answering either the
 * community its data file is named after (SNMPv2c, `recordedAgents`) or one SNMPv3 user only
 * (`recordedV3Agents`). The processes carry the test's owner mark (owned.ts) and die with the
 * test; their data lives in a directory of the test's own.
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

/** The SNMPv3 user (authPriv: SHA and AES-128) that agents of `recordedV3Agents` answer, as a credential of the settings API takes it. */
export interface RecordedV3User {
  user: string
  authProtocol: 'SHA'
  authPassword: string
  privProtocol: 'AES'
  privPassword: string
}

export interface RecordedV3Agents {
  v3: RecordedV3User
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
  const community = `rec${randomBytes(6).toString('hex')}`
  const address = await startAgents(t, recordings, vlans, { community })
  return { community, address }
}

/**
 * The same agents answering SNMPv3 only, to one user of their own (random names and keys), as a
 * Cisco switch answers SNMPv3: the device's default instance in the empty context, each VLAN's
 * instance of `vlans` in the context "vlan-N" and nowhere else. Communities are silence.
 */
export async function recordedV3Agents(
  t: Teardown,
  recordings: ReadonlyMap<string, readonly Varbind[]>,
  vlans: ReadonlyMap<string, ReadonlyMap<number, readonly Varbind[]>> = new Map(),
): Promise<RecordedV3Agents> {
  const v3: RecordedV3User = {
    user: `rec${randomBytes(6).toString('hex')}`,
    authProtocol: 'SHA',
    authPassword: randomBytes(12).toString('hex'),
    privProtocol: 'AES',
    privPassword: randomBytes(12).toString('hex'),
  }
  return { v3, address: await startAgents(t, recordings, vlans, { v3 }) }
}

/**
 * snmpsim 0.4.5 (snmpsimd, v3 architecture) names a data file's context after its path in the data
 * directory without the extension, and picks the data file of a request from the candidates
 * "context/transport/source", "context/transport", "context" (`probeContext`), the empty
 * context left out: a request in the empty context is answered from the file named after the
 * transport the request came in on ("1.3.6.1.6.1.1.0": snmpUDPDomain and the first UDP/IPv4
 * endpoint's transport ID), and from nothing (no answer) without one.
 */
const EMPTY_CONTEXT_FILE = '1.3.6.1.6.1.1.0'

/**
 * How agents answer in a mode: the data file (without extension) of a device's default instance
 * and of each VLAN's, snmpsimd's options (every community of the data files, or the SNMPv3 user
 * only), and snmpget's options for asking the default instance.
 */
function modeOf(mode: { community: string } | { v3: RecordedV3User }): { main: string; vlan: (vlan: number) => string; daemon: string[]; probe: string[] } {
  if ('community' in mode) return { main: mode.community, vlan: (vlan) => `${mode.community}@${vlan}`, daemon: [], probe: ['-v2c', '-c', mode.community] }
  const { v3 } = mode
  return {
    main: EMPTY_CONTEXT_FILE,
    vlan: (vlan) => `vlan-${vlan}`,
    daemon: ['--v3-only', `--v3-user=${v3.user}`, `--v3-auth-key=${v3.authPassword}`, `--v3-auth-proto=${v3.authProtocol}`, `--v3-priv-key=${v3.privPassword}`, `--v3-priv-proto=${v3.privProtocol}`],
    probe: ['-v3', '-l', 'authPriv', '-u', v3.user, '-a', v3.authProtocol, '-A', v3.authPassword, '-x', v3.privProtocol, '-X', v3.privPassword],
  }
}

async function startAgents(
  t: Teardown,
  recordings: ReadonlyMap<string, readonly Varbind[]>,
  vlans: ReadonlyMap<string, ReadonlyMap<number, readonly Varbind[]>>,
  mode: { community: string } | { v3: RecordedV3User },
): Promise<Map<string, string>> {
  own()
  const dir = await mkdtemp(join(tmpdir(), `netinv-rec-${process.pid}-`))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await chmod(dir, 0o755)
  const how = modeOf(mode)
  const net = `127.${100 + (randomBytes(1)[0]! % 100)}.${randomBytes(1)[0]! % 250}`
  const address = new Map<string, string>()
  let host = 1
  for (const [name, varbinds] of recordings) {
    const ip = `${net}.${host++}`
    const data = join(dir, name, 'data')
    const cache = join(dir, name, 'cache')
    await mkdir(data, { recursive: true })
    await mkdir(cache, { recursive: true })
    await writeFile(join(data, `${how.main}.snmprec`), snmprec(varbinds), { mode: 0o644 })
    for (const [vlan, vbs] of vlans.get(name) ?? []) await writeFile(join(data, `${how.vlan(vlan)}.snmprec`), snmprec(vbs), { mode: 0o644 })
    // snmpsimd drops root for nobody: its data must be readable and its cache writable by it
    await chmod(join(dir, name), 0o755)
    await chmod(data, 0o755)
    await chmod(cache, 0o777)
    const child = spawnOwned(
      'snmpsimd',
      [
        `--data-dir=${data}`,
        `--cache-dir=${cache}`,
        `--agent-udpv4-endpoint=${ip}:161`,
        '--process-user=nobody',
        '--process-group=nogroup',
        '--logging-method=null',
        ...how.daemon,
      ],
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
        await run('snmpget', [...how.probe, '-t', '1', '-r', '0', '-On', ip, '1.3.6.1.2.1.1.5.0'])
        break
      } catch (err) {
        if (child.exitCode !== null || i >= 60) throw new Error(`snmpsimd for ${name} on ${ip} did not answer: ${(err as Error).message} ${stderr}`, { cause: err })
      }
    }
  }
  return address
}
