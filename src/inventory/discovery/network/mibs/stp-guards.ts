/**
 * The spanning-tree protections of each bridge port of a Cisco switch, from CISCO-STP-EXTENSIONS-MIB
 * (tables indexed by the bridge port number, as dot1dBasePortIfIndex names it): PortFast (edge port)
 * and BPDU guard and filter in stpxFastStartPortTable, whose "default" means the switch-wide
 * setting (stpxFastStartGlobalDefaultMode for PortFast; stpxFastStartBpduGuardEnable and
 * stpxFastStartBpduFilterEnable, which apply to the ports PortFast is on), root guard in
 * stpxRootGuardConfigTable, loop guard in stpxLoopGuardConfigTable (its mode, else the older
 * enabled column).
 */
import type { MibReader } from '../snmp/client.js'
import { int, truthValue, type Vb } from '../snmp/values.js'
import type { StpGuards } from '../model.js'

export const STP_GUARD_DEFAULTS = {
  bpduGuard: '1.3.6.1.4.1.9.9.82.1.9.1.0',
  bpduFilter: '1.3.6.1.4.1.9.9.82.1.9.2.0',
  portFast: '1.3.6.1.4.1.9.9.82.1.9.4.0',
}

/** stpxFastStartPortTable; index: stpxFastStartPortIndex (the bridge port). */
export const FAST_START_PORT = {
  mode: '1.3.6.1.4.1.9.9.82.1.9.3.1.3',
  bpduGuard: '1.3.6.1.4.1.9.9.82.1.9.3.1.4',
  bpduFilter: '1.3.6.1.4.1.9.9.82.1.9.3.1.5',
}
/** stpxRootGuardConfigTable; index: the bridge port. */
export const ROOT_GUARD = { enabled: '1.3.6.1.4.1.9.9.82.1.5.1.1.2' }
/** stpxLoopGuardConfigTable; index: the bridge port. */
export const LOOP_GUARD = { enabled: '1.3.6.1.4.1.9.9.82.1.8.1.1.2', mode: '1.3.6.1.4.1.9.9.82.1.8.1.1.3' }

/** A per-port mode of enable(1), disable(2), default(3): the switch-wide value where default. */
function modeOr(vb: Vb | undefined, fallback: boolean | null): boolean | null {
  const n = int(vb)
  return n === 1 ? true : n === 2 ? false : n === 3 ? fallback : null
}

/** The protections of every bridge port the switch lists in any of the tables; empty where it has none of them. */
export async function collectStpGuards(client: MibReader): Promise<Map<number, StpGuards>> {
  const [defaults, fast, root, loop] = await Promise.all([
    client.get(Object.values(STP_GUARD_DEFAULTS)),
    client.table(FAST_START_PORT),
    client.table(ROOT_GUARD),
    client.table(LOOP_GUARD),
  ])
  const bpduGuardDefault = truthValue(defaults.get(STP_GUARD_DEFAULTS.bpduGuard))
  const bpduFilterDefault = truthValue(defaults.get(STP_GUARD_DEFAULTS.bpduFilter))
  // stpxFastStartGlobalDefaultMode: enable(1), disable(2), network(3)
  const globalMode = int(defaults.get(STP_GUARD_DEFAULTS.portFast))
  const portFastDefault = globalMode === 1 ? true : globalMode === 2 || globalMode === 3 ? false : null
  const guards = new Map<number, StpGuards>()
  const of = (port: number): StpGuards => {
    let g = guards.get(port)
    if (!g) guards.set(port, (g = { portFast: null, bpduGuard: null, bpduFilter: null, rootGuard: null, loopGuard: null }))
    return g
  }
  for (const { index, cells } of fast) {
    if (index.length !== 1) continue
    const g = of(index[0]!)
    // stpxFastStartPortMode: enable(1), disable(2), enableForTrunk(3), default(4), network(5)
    const mode = int(cells.mode)
    g.portFast = mode === 1 || mode === 3 ? true : mode === 2 || mode === 5 ? false : mode === 4 ? portFastDefault : null
    // the switch-wide BPDU guard and filter apply to the ports PortFast is on
    const onEdge = (fallback: boolean | null) => (g.portFast === false ? false : g.portFast === true ? fallback : null)
    g.bpduGuard = modeOr(cells.bpduGuard, onEdge(bpduGuardDefault))
    g.bpduFilter = modeOr(cells.bpduFilter, onEdge(bpduFilterDefault))
  }
  for (const { index, cells } of root) if (index.length === 1) of(index[0]!).rootGuard = truthValue(cells.enabled)
  for (const { index, cells } of loop) {
    if (index.length !== 1) continue
    const mode = int(cells.mode)
    of(index[0]!).loopGuard = mode === 1 ? true : mode === 2 ? false : truthValue(cells.enabled)
  }
  return guards
}
