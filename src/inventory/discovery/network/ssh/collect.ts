/**
 * Configuration collection of the devices a discovery found: each device's login address is
 * offered the SSH credentials whose networks hold it, in order, until one logs in; the host key
 * must be the one recorded for the address (or is recorded now, on first contact). A device
 * that fails (refused login, changed host key, timeout, a command refused) gets an error of its
 * own and the others go on: a failing device never fails the discovery.
 */
import { offeredTo } from '../../../settings/credentials.js'
import type { SshCredential } from '../../../settings/ssh-credentials.js'
import { configCommands } from './commands.js'
import { hostKeyId } from './host-keys.js'
import { configurationHash, savedStatus, storedConfiguration, type SavedStatus } from './mask.js'
import { readConfig, SshFailure, type HostKey, type SshFailureKind } from './session.js'

export interface ConfigTarget {
  sn: string
  address: string
  /** OS family (vendor.ts), which says what to type. */
  family: string | null
}

export interface CollectedConfig {
  sn: string
  /** Masked, volatile lines left out: what is stored. */
  text: string
  hash: string
  /** Whether the running configuration is the one the device starts with; null when it does not tell. */
  status: SavedStatus | null
  credential: string
}

export type ConfigFailureKind = Exclude<SshFailureKind, 'stopped'> | 'unsupported'

export interface ConfigFailure {
  sn: string
  address: string
  kind: ConfigFailureKind
  message: string
}

/** Snapshot error type per kind (the `errors` list of a snapshot counts these). */
export const SSH_ERROR_TYPES: Readonly<Record<ConfigFailureKind, string>> = {
  timeout: 'SSH_TIMEOUT',
  refused: 'SSH_UNREACHABLE',
  auth: 'SSH_AUTHENTICATION',
  'host-key': 'SSH_HOST_KEY_CHANGED',
  command: 'SSH_COMMAND',
  unsupported: 'SSH_UNSUPPORTED_DEVICE',
}

export interface ConfigCollection {
  configs: CollectedConfig[]
  failures: ConfigFailure[]
  /** Host keys seen on first contact, to record. */
  newHostKeys: Array<{ address: string; port: number; key: HostKey }>
}

export interface ConfigOptions {
  targets: readonly ConfigTarget[]
  credentials: readonly SshCredential[]
  known: ReadonlyMap<string, HostKey>
  timeoutMs: number
  concurrency: number
  signal: AbortSignal
}

async function collectOne(t: ConfigTarget, o: ConfigOptions, out: ConfigCollection): Promise<void> {
  const offered = o.credentials.filter((c) => offeredTo(c, t.address))
  if (offered.length === 0) return
  const commands = configCommands(t.family)
  if (commands === null) {
    out.failures.push({ sn: t.sn, address: t.address, kind: 'unsupported', message: `netinv has no configuration commands for OS family ${t.family ?? 'unknown'}` })
    return
  }
  const refusals: string[] = []
  for (const credential of offered) {
    const id = hostKeyId(t.address, credential.port)
    const known = o.known.get(id)
    try {
      const read = await readConfig({ address: t.address, credential, known, commands, timeoutMs: o.timeoutMs, signal: o.signal })
      if (!known && !out.newHostKeys.some((k) => hostKeyId(k.address, k.port) === id)) out.newHostKeys.push({ address: t.address, port: credential.port, key: read.hostKey })
      const text = storedConfiguration(read.text)
      const status = commands.committed ? 'saved' : read.startup === null ? null : savedStatus(read.text, read.startup)
      out.configs.push({ sn: t.sn, text, hash: configurationHash(text), status, credential: credential.name })
      return
    } catch (err) {
      const e = err instanceof SshFailure ? err : new SshFailure('command', String(err))
      if (e.kind === 'stopped') throw e
      // the key a refused login showed is still this address's first key
      if (!known && e.kind !== 'host-key' && e.hostKey && !out.newHostKeys.some((k) => hostKeyId(k.address, k.port) === id)) out.newHostKeys.push({ address: t.address, port: credential.port, key: e.hostKey })
      if (e.kind === 'auth') {
        refusals.push(`${credential.name}: ${e.message}`)
        continue
      }
      out.failures.push({ sn: t.sn, address: t.address, kind: e.kind, message: `${credential.name}: ${e.message}` })
      return
    }
  }
  out.failures.push({ sn: t.sn, address: t.address, kind: 'auth', message: `SSH login refused: ${refusals.join('; ')}` })
}

/** Reads the configuration of every target that has an SSH credential, `concurrency` at a time. */
export async function collectConfigs(o: ConfigOptions): Promise<ConfigCollection> {
  const out: ConfigCollection = { configs: [], failures: [], newHostKeys: [] }
  let next = 0
  const worker = async () => {
    while (next < o.targets.length) {
      if (o.signal.aborted) throw o.signal.reason instanceof Error ? o.signal.reason : new Error('stopped')
      await collectOne(o.targets[next++]!, o, out)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, o.targets.length)) }, worker))
  return out
}
