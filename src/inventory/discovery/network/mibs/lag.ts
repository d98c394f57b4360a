/**
 * Link aggregation: IEEE8023-LAG-MIB dot3adAggPortTable (the aggregator each LACP port selected
 * and is attached to, and its LACP state) and IF-MIB ifStackTable (which interfaces a
 * port-channel is stacked on, for static and vendor channels the LACP table does not list).
 */
import type { MibReader } from '../snmp/client.js'
import { indexOf, int } from '../snmp/values.js'
import type { LagData, LagPort } from '../model.js'

/** dot3adAggPortTable; index: the port's ifIndex. */
export const AGG_PORT = {
  selected: '1.2.840.10006.300.43.1.2.1.1.12',
  attached: '1.2.840.10006.300.43.1.2.1.1.13',
  actorOperState: '1.2.840.10006.300.43.1.2.1.1.21',
}
/** ifStackStatus; index: higher layer ifIndex, lower layer ifIndex. */
export const IF_STACK_STATUS = '1.3.6.1.2.1.31.1.2.1.3'

/** LacpState BITS: bit 0 is the most significant bit of the first octet. */
const LACP_BITS = { activity: 0x80, synchronization: 0x10, collecting: 0x08, distributing: 0x04 }

function lacpState(value: unknown): LagPort['lacp'] {
  if (!Buffer.isBuffer(value) || value.length < 1) return null
  const b = value[0]!
  return {
    active: (b & LACP_BITS.activity) !== 0,
    synchronized: (b & LACP_BITS.synchronization) !== 0,
    collecting: (b & LACP_BITS.collecting) !== 0,
    distributing: (b & LACP_BITS.distributing) !== 0,
  }
}

export async function collectLag(client: MibReader): Promise<LagData> {
  const [rows, stack] = await Promise.all([client.table(AGG_PORT), client.walk([IF_STACK_STATUS])])
  const ports: LagPort[] = []
  for (const { index, cells } of rows) {
    const ifIndex = index[0]
    if (ifIndex === undefined) continue
    const selected = int(cells.selected)
    const attached = int(cells.attached)
    ports.push({ ifIndex, selected: selected || null, attached: attached || null, lacp: lacpState(cells.actorOperState?.value) })
  }
  const stacked: Array<{ higher: number; lower: number }> = []
  for (const vb of stack.get(IF_STACK_STATUS) ?? []) {
    const [higher, lower] = indexOf(vb.oid, IF_STACK_STATUS)
    // active(1) rows between two interfaces (0 stands for "none" at either end)
    if (higher && lower && int(vb) === 1) stacked.push({ higher, lower })
  }
  return { ports, stack: stacked }
}
