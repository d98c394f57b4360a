/** What building a lab needs on the machine: root, iproute2, FRR with its SNMP modules, lldpd, snmpd and the snmp tools. */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Debian packages the lab runs (`.ci/run` installs the missing ones). */
export const LAB_PACKAGES = ['iproute2', 'frr', 'frr-snmp', 'lldpd', 'snmpd', 'snmp'] as const

function has(command: string, args: readonly string[]): boolean {
  const r = spawnSync(command, [...args], { stdio: 'ignore' })
  return r.error === undefined && r.status !== null
}

/** Null when a lab can be built here, else what is missing. */
export function labMissing(): string | null {
  const missing: string[] = []
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) missing.push('root (network namespaces)')
  if (!has('ip', ['-V'])) missing.push('iproute2')
  if (!has('unshare', ['--version'])) missing.push('unshare (util-linux)')
  if (!existsSync('/usr/lib/frr/zebra') || !has('vtysh', ['--version'])) missing.push('frr')
  if (!existsSync('/usr/lib/x86_64-linux-gnu/frr/modules/bgpd_snmp.so') && !existsSync('/usr/lib/aarch64-linux-gnu/frr/modules/bgpd_snmp.so')) missing.push('frr-snmp')
  if (!has('lldpd', ['-v']) || !has('lldpcli', ['-v'])) missing.push('lldpd')
  if (!has('snmpd', ['-v'])) missing.push('snmpd')
  if (!has('snmpset', ['-V'])) missing.push('snmp (snmpset)')
  return missing.length === 0 ? null : missing.join(', ')
}
