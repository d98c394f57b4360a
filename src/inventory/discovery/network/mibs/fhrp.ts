/**
 * First-hop redundancy groups: VRRPv3-MIB (RFC 6527) vrrpv3OperationsTable, else VRRP-MIB
 * (RFC 2787) vrrpOperTable (an agent that answers both lists the same groups twice), and
 * CISCO-HSRP-MIB cHsrpGrpTable. The virtual address is the lowest associated address (the first in walk order) of a VRRP
 * group (vrrpv3AssociatedIpAddrTable, vrrpAssoIpAddrTable) and cHsrpGrpVirtualIpAddr of HSRP.
 * States: VRRP master is active, backup standby, initialize init; HSRP active, standby and
 * listen as they are, initial and learn init, and speak (between listen and standby, while
 * the election runs) null.
 */
import type { MibReader } from '../snmp/client.js'
import { inetFromIndex, int, ipFromIndex, str, truthValue } from '../snmp/values.js'
import type { FhrpGroup } from '../model.js'

export const VRRP3_OPER = { status: '1.3.6.1.2.1.207.1.1.1.1.6', priority: '1.3.6.1.2.1.207.1.1.1.1.7', preempt: '1.3.6.1.2.1.207.1.1.1.1.10' }
export const VRRP3_ADDR = { rowStatus: '1.3.6.1.2.1.207.1.1.2.1.2' }
export const VRRP_OPER = { state: '1.3.6.1.2.1.68.1.3.1.3', priority: '1.3.6.1.2.1.68.1.3.1.5', preempt: '1.3.6.1.2.1.68.1.3.1.12' }
export const VRRP_ADDR = { rowStatus: '1.3.6.1.2.1.68.1.4.1.2' }
export const HSRP_GROUP = { priority: '1.3.6.1.4.1.9.9.106.1.2.1.1.3', preempt: '1.3.6.1.4.1.9.9.106.1.2.1.1.4', virtualIp: '1.3.6.1.4.1.9.9.106.1.2.1.1.11', state: '1.3.6.1.4.1.9.9.106.1.2.1.1.15' }

const VRRP_STATES: Readonly<Record<number, FhrpGroup['state']>> = { 1: 'init', 2: 'standby', 3: 'active' }
const HSRP_STATES: Readonly<Record<number, FhrpGroup['state']>> = { 1: 'init', 2: 'init', 3: 'listen', 4: null, 5: 'standby', 6: 'active' }


/** The first address of each group (by the group's key) in walk order: index order, the numerically lowest. */
function first(addresses: Array<[string, string]>): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, ip] of addresses) if (!out.has(key)) out.set(key, ip)
  return out
}

async function vrrp3(client: MibReader): Promise<FhrpGroup[]> {
  const groups = await client.table(VRRP3_OPER)
  if (groups.length === 0) return []
  const addresses: Array<[string, string]> = []
  for (const row of await client.table(VRRP3_ADDR)) {
    const addr = inetFromIndex(row.index, 2)
    if (addr && row.index.length === addr.next) addresses.push([row.index.slice(0, 3).join('.'), addr.address])
  }
  const vip = first(addresses)
  return groups.flatMap(({ index, cells }) => {
    const [ifIndex, groupId] = index
    if (ifIndex === undefined || groupId === undefined || index.length !== 3) return []
    const status = int(cells.status)
    return [{ ifIndex, protocol: 'vrrp' as const, groupId, virtualIp: vip.get(index.join('.')) ?? null, state: status === null ? null : (VRRP_STATES[status] ?? null), priority: int(cells.priority), preempt: truthValue(cells.preempt) }]
  })
}

async function vrrp2(client: MibReader): Promise<FhrpGroup[]> {
  const groups = await client.table(VRRP_OPER)
  if (groups.length === 0) return []
  const addresses: Array<[string, string]> = []
  for (const row of await client.table(VRRP_ADDR)) {
    const ip = ipFromIndex(row.index, 2)
    if (ip && row.index.length === 6) addresses.push([row.index.slice(0, 2).join('.'), ip])
  }
  const vip = first(addresses)
  return groups.flatMap(({ index, cells }) => {
    const [ifIndex, groupId] = index
    if (ifIndex === undefined || groupId === undefined || index.length !== 2) return []
    const state = int(cells.state)
    return [{ ifIndex, protocol: 'vrrp' as const, groupId, virtualIp: vip.get(index.join('.')) ?? null, state: state === null ? null : (VRRP_STATES[state] ?? null), priority: int(cells.priority), preempt: truthValue(cells.preempt) }]
  })
}

async function hsrp(client: MibReader): Promise<FhrpGroup[]> {
  return (await client.table(HSRP_GROUP)).flatMap(({ index, cells }) => {
    const [ifIndex, groupId] = index
    if (ifIndex === undefined || groupId === undefined || index.length !== 2) return []
    const state = int(cells.state)
    const vip = str(cells.virtualIp)
    return [{ ifIndex, protocol: 'hsrp' as const, groupId, virtualIp: vip && vip !== '0.0.0.0' ? vip : null, state: state === null ? null : (HSRP_STATES[state] ?? null), priority: int(cells.priority), preempt: truthValue(cells.preempt) }]
  })
}

export async function collectFhrp(client: MibReader): Promise<FhrpGroup[]> {
  const v3 = await vrrp3(client)
  return [...(v3.length > 0 ? v3 : await vrrp2(client)), ...(await hsrp(client))]
}
