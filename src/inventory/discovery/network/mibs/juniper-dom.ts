/**
 * The optics levels of a Juniper device's transceivers from JUNIPER-DOM-MIB, which Junos answers
 * instead of ENTITY-SENSOR-MIB: jnxDomCurrentTable per interface (indexed by ifIndex: received and
 * transmitted power in hundredths of a dBm, laser bias current in microamperes, module temperature
 * in °C, module voltage in millivolts) and, for a multi-lane optic, jnxDomModuleLaneTable per lane
 * (indexed by ifIndex and the lane as Junos numbers it, from 0: the same readings of each lane).
 */
import type { MibReader } from '../snmp/client.js'
import { decimal, int, type Vb } from '../snmp/values.js'
import type { OpticLevels, OpticReadings } from '../model.js'

/** jnxDomCurrentTable; index: ifIndex. */
export const JNX_DOM = {
  rxPower: '1.3.6.1.4.1.2636.3.60.1.1.1.1.5',
  txBias: '1.3.6.1.4.1.2636.3.60.1.1.1.1.6',
  txPower: '1.3.6.1.4.1.2636.3.60.1.1.1.1.7',
  temperature: '1.3.6.1.4.1.2636.3.60.1.1.1.1.8',
  voltage: '1.3.6.1.4.1.2636.3.60.1.1.1.1.25',
}

/** jnxDomModuleLaneTable; index: ifIndex, jnxDomLaneIndex. */
export const JNX_DOM_LANE = {
  rxPower: '1.3.6.1.4.1.2636.3.60.1.2.1.1.6',
  txBias: '1.3.6.1.4.1.2636.3.60.1.2.1.1.7',
  txPower: '1.3.6.1.4.1.2636.3.60.1.2.1.1.8',
}

/** An integer reading in the given fraction of its unit, or null where the agent has none. */
const scaled = (vb: Vb | undefined, per: number): number | null => {
  const n = int(vb)
  return n === null ? null : decimal(n / per)
}

/** The readings of each interface with an optic that reports them, by ifIndex. */
export async function collectJuniperDom(client: MibReader): Promise<Map<number, OpticReadings>> {
  const out = new Map<number, OpticReadings>()
  const rows = await client.table(JNX_DOM)
  if (rows.length === 0) return out
  for (const { index, cells } of rows) {
    if (index.length !== 1) continue
    const module: OpticLevels = {
      temperature: int(cells.temperature),
      voltage: scaled(cells.voltage, 1000),
      txBias: scaled(cells.txBias, 1000),
      txPower: scaled(cells.txPower, 100),
      rxPower: scaled(cells.rxPower, 100),
    }
    out.set(index[0]!, { module, lanes: new Map() })
  }
  for (const { index, cells } of await client.table(JNX_DOM_LANE)) {
    const optic = index.length === 2 ? out.get(index[0]!) : undefined
    if (!optic) continue
    optic.lanes.set(index[1]!, { temperature: null, voltage: null, txBias: scaled(cells.txBias, 1000), txPower: scaled(cells.txPower, 100), rxPower: scaled(cells.rxPower, 100) })
  }
  return out
}
