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
import { defineCommand, integerOption, stringOption, UsageError, type Command, type Parsed } from './args.js'

async function topologyFrom(p: Parsed): Promise<Topology> {
  const file = stringOption(p, 'topology')
  const routers = integerOption(p, 'routers', 1)
  if (file) return checkTopology(JSON.parse(await readFile(file, 'utf8')) as Topology)
  if (routers !== undefined) return generatedTopology(routers)
  return defaultTopology()
}

export const labCommand: Command = defineCommand(
  {
    name: 'lab',
    summary: 'build (up), remove (down) or clean up labs of real routers in network namespaces to discover',
    positionals: [{ name: 'action', description: 'up, down or clean (removes labs whose building process is gone)' }],
    options: {
      prefix: { type: 'string', value: 'name', description: 'prefix of the namespaces of the lab (default nilab)' },
      routers: { type: 'string', value: 'n', description: 'up: a generated topology of n routers' },
      topology: { type: 'string', value: 'file.json', description: 'up: the topology from a file' },
    },
  },
  async (p, io) => {
    const say = (line: string) => io.stdout.write(`${line}\n`)
    const [action] = p.positionals as [string]
    const prefix = stringOption(p, 'prefix') ?? 'nilab'
    if (action === 'down') {
      const r = await teardown(prefix)
      say(`removed lab ${prefix}: ${r.namespaces} namespaces, ${r.processes} processes`)
      return 0
    }
    if (action === 'clean') {
      for (const stale of await staleLabs()) say(`removed lab ${stale}: ${(await teardown(stale)).namespaces} namespaces`)
      return 0
    }
    if (action !== 'up') throw new UsageError(`unknown action "${action}"; actions are up, down, clean`)
    const missing = labMissing()
    if (missing) throw new Error(`a lab needs ${missing}`)
    const topology = await topologyFrom(p)
    const started = Date.now()
    const lab = await Lab.up({ prefix, topology, persistent: true, log: say })
    const { v3, community } = topology.credentials
    say(`lab ${prefix} is up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${lab.size.routers} routers, ${lab.size.hosts} hosts`)
    say(`seed address: ${lab.seed} (this machine reaches ${topology.supernet} over ${managementAddresses(topology).root})`)
    say(`SNMP: community "${community}"; SNMPv3 user "${v3.user}" (${v3.authProtocol}/${v3.privProtocol}) on routers set to it in the topology`)
    say(`remove it with: netinv lab down --prefix ${prefix}`)
    return 0
  },
)
