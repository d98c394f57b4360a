/**
 * net-snmp has no BRIDGE-MIB for a Linux bridge, so each lab switch's snmpd hands the
 * BRIDGE-MIB subtree to this `pass_persist` program. It answers what netinv's collector reads
 * (src/inventory/discovery/network/mibs/bridge.ts) from `ip -j -d link` and `bridge -j fdb`:
 * dot1dBaseBridgeAddress (the bridge's MAC address), dot1dBaseNumPorts, dot1dBasePortTable's
 * port number and ifIndex (the kernel's port number, `brport/port_no`), and dot1dTpFdbTable
 * (address, port, status: learned(3) for a dynamic entry, self(4) for an address of the bridge
 * or its ports, mgmt(5) for another permanent or static one). Nothing else: no spanning tree,
 * no Q-BRIDGE-MIB (the lab's kernel bridges have no VLAN filtering).
 * It is plain JavaScript run by the same Node as netinv, written into the switch's run directory.
 */
import { PASS_PERSIST_LOOP } from './pass-persist.js'

/** The subtree snmpd hands to the agent: BRIDGE-MIB's dot1dBridge. */
export const DOT1D_BRIDGE = '1.3.6.1.2.1.17'

export function bridgeAgentScript(bridge = 'br0'): string {
  return String.raw`// pass_persist agent of BRIDGE-MIB (written by netinv's lab)
import { execFileSync } from 'node:child_process'
import { createInterface } from 'node:readline'

const BRIDGE = ${JSON.stringify(bridge)}
const BASE = [1, 3, 6, 1, 2, 1, 17, 1]
const FDB = [1, 3, 6, 1, 2, 1, 17, 4, 3, 1]

let rows = []
let readAt = 0

const json = (cmd, args) => JSON.parse(execFileSync(cmd, args, { encoding: 'utf8' }) || '[]')
const octets = (mac) => mac.split(':').map((x) => parseInt(x, 16))
const hex = (mac) => octets(mac).map((x) => x.toString(16).padStart(2, '0')).join(' ')

function load() {
  if (Date.now() - readAt < 1000) return
  readAt = Date.now()
  const links = json('ip', ['-j', '-d', 'link', 'show'])
  const bridge = links.find((l) => l.ifname === BRIDGE)
  if (!bridge) throw new Error('no bridge ' + BRIDGE)
  // port number → link, from the kernel's numbering of the bridge's ports
  const ports = new Map()
  for (const l of links) {
    const no = l.master === BRIDGE ? l.linkinfo?.info_slave_data?.no : undefined
    if (no !== undefined) ports.set(Number(no), l)
  }
  const portOf = new Map([...ports].map(([no, l]) => [l.ifname, no]))
  const own = new Set([bridge, ...ports.values()].map((l) => l.address))
  const out = [
    { oid: [...BASE, 1, 0], value: ['octet', hex(bridge.address)] },
    { oid: [...BASE, 2, 0], value: ['integer', ports.size] },
  ]
  for (const [no, l] of ports) {
    out.push({ oid: [...BASE, 4, 1, 1, no], value: ['integer', no] })
    out.push({ oid: [...BASE, 4, 1, 2, no], value: ['integer', l.ifindex] })
  }
  // the bridge's own forwarding database (not the ports' own address lists, flagged "self"), unicast addresses only
  const fdb = json('bridge', ['-j', 'fdb', 'show', 'br', BRIDGE]).filter((e) => e.master === BRIDGE || (e.ifname === BRIDGE && !(e.flags ?? []).includes('self')))
  for (const e of fdb) {
    const mac = octets(e.mac)
    if (mac.length !== 6 || mac.some((x) => Number.isNaN(x)) || (mac[0] & 1) === 1) continue
    const dynamic = e.state === '' || e.state === undefined || e.state === 'stale'
    const status = dynamic ? 3 : own.has(e.mac) ? 4 : 5
    out.push({ oid: [...FDB, 1, ...mac], value: ['octet', hex(e.mac)] })
    out.push({ oid: [...FDB, 2, ...mac], value: ['integer', portOf.get(e.ifname) ?? 0] })
    out.push({ oid: [...FDB, 3, ...mac], value: ['integer', status] })
  }
  rows = sortRows(out)
}
${PASS_PERSIST_LOOP}`
}
