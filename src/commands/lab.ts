/**
 * `netinv lab`: builds or removes a lab of real routers (FRR, lldpd, snmpd) in network
 * namespaces on this machine, to try network discovery on.
 *
 *   netinv lab up [--prefix nilab] [--routers N] [--topology file.json]
 *   netinv lab down [--prefix nilab]
 *   netinv lab clean       removes labs whose building process is gone
 */
import { readFile } from 'node:fs/promises'
import { Lab, checkTopology, defaultTopology, labMissing, staleLabs, teardown, managementAddresses, type Topology } from '../lab/index.js'
import { generatedTopology } from '../lab/generate.js'
import type { Command } from './index.js'

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return undefined
  const v = args[i + 1]
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`)
  return v
}

async function topologyFrom(args: string[]): Promise<Topology> {
  const file = option(args, 'topology')
  const routers = option(args, 'routers')
  if (file) return checkTopology(JSON.parse(await readFile(file, 'utf8')) as Topology)
  if (routers) return generatedTopology(Number(routers))
  return defaultTopology()
}

export const labCommand: Command = {
  summary: 'build (up), remove (down) or clean up labs of real routers in network namespaces to discover',
  async run(args) {
    const [action = '', ...rest] = args
    const prefix = option(rest, 'prefix') ?? 'nilab'
    if (action === 'down') {
      const r = await teardown(prefix)
      console.log(`removed lab ${prefix}: ${r.namespaces} namespaces, ${r.processes} processes`)
      return 0
    }
    if (action === 'clean') {
      for (const stale of await staleLabs()) console.log(`removed lab ${stale}: ${(await teardown(stale)).namespaces} namespaces`)
      return 0
    }
    if (action !== 'up') {
      console.error('usage: netinv lab up [--prefix nilab] [--routers N] [--topology file.json] | netinv lab down [--prefix nilab] | netinv lab clean')
      return 2
    }
    const missing = labMissing()
    if (missing) throw new Error(`a lab needs ${missing}`)
    const topology = await topologyFrom(rest)
    const started = Date.now()
    const lab = await Lab.up({ prefix, topology, persistent: true, log: (line) => console.log(line) })
    const { v3, community } = topology.credentials
    console.log(`lab ${prefix} is up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${lab.size.routers} routers, ${lab.size.hosts} hosts`)
    console.log(`seed address: ${lab.seed} (this machine reaches ${topology.supernet} over ${managementAddresses(topology).root})`)
    console.log(`SNMP: community "${community}"; SNMPv3 user "${v3.user}" (${v3.authProtocol}/${v3.privProtocol}) on routers set to it in the topology`)
    console.log(`remove it with: netinv lab down --prefix ${prefix}`)
    return 0
  },
}
