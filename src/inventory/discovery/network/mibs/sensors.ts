/**
 * The readings of a device's physical sensors, for the optics levels of its transceivers (digital
 * optical monitoring): ENTITY-SENSOR-MIB entPhySensorTable (RFC 3433, what Arista and most agents
 * answer), else Cisco's CISCO-ENTITY-SENSOR-MIB entSensorValueTable, which numbers its types,
 * scales and states the same way. Each row is indexed by the sensor's entPhysicalIndex: the
 * sensor is an ENTITY-MIB entry whose name says what it measures ("Te1/1/1 Receive Power Sensor",
 * "DOM Rx Power Sensor for Ethernet1/1 Lane 2"). ENTITY-MIB's entAliasMappingTable ties a physical
 * port to its interface where the agent has it.
 */
import type { MibReader } from '../snmp/client.js'
import { decimal, int, str, type Vb } from '../snmp/values.js'
import type { SensorReading, SensorType } from '../model.js'

/** entPhySensorTable; index: entPhysicalIndex. */
export const ENT_PHY_SENSOR = {
  type: '1.3.6.1.2.1.99.1.1.1.1',
  scale: '1.3.6.1.2.1.99.1.1.1.2',
  precision: '1.3.6.1.2.1.99.1.1.1.3',
  value: '1.3.6.1.2.1.99.1.1.1.4',
  status: '1.3.6.1.2.1.99.1.1.1.5',
}

/** CISCO-ENTITY-SENSOR-MIB entSensorValueTable; index: entPhysicalIndex. */
export const CISCO_ENT_SENSOR = {
  type: '1.3.6.1.4.1.9.9.91.1.1.1.1.1',
  scale: '1.3.6.1.4.1.9.9.91.1.1.1.1.2',
  precision: '1.3.6.1.4.1.9.9.91.1.1.1.1.3',
  value: '1.3.6.1.4.1.9.9.91.1.1.1.1.4',
  status: '1.3.6.1.4.1.9.9.91.1.1.1.1.5',
}

/** entAliasMappingTable's identifier; index: entPhysicalIndex, entAliasLogicalIndexOrZero. */
export const ENT_ALIAS = { identifier: '1.3.6.1.2.1.47.1.3.2.1.2' }

/** EntitySensorDataType (and Cisco's SensorDataType): the kinds an optic's sensors report. */
const TYPES: Readonly<Record<number, SensorType>> = { 4: 'voltsDC', 5: 'amperes', 6: 'watts', 8: 'celsius', 14: 'dBm' }

/** The IF-MIB ifIndex an entAliasMappingIdentifier points at (ifIndex.N), or null. */
const IF_INDEX = '1.3.6.1.2.1.2.2.1.1.'

/**
 * A reading as a number: the value times 10^(3·(scale − units)) over 10^precision
 * (EntitySensorDataScale: units(9), milli(8), micro(7), ...), null unless the sensor is ok(1).
 */
function reading(cells: Readonly<Record<string, Vb | undefined>>): number | null {
  const value = int(cells.value)
  const scale = int(cells.scale)
  const precision = int(cells.precision) ?? 0
  if (value === null || scale === null || scale < 1 || scale > 17 || int(cells.status) !== 1) return null
  return decimal(value * 10 ** (3 * (scale - 9) - precision))
}

/** The sensors of the kinds optics report, with their readings, and the interfaces ENTITY-MIB ties physical ports to; nothing where the agent has no sensor table. */
export async function collectSensors(client: MibReader): Promise<{ sensors: SensorReading[]; ports: Map<number, number> }> {
  let rows = await client.table(ENT_PHY_SENSOR)
  if (rows.length === 0) rows = await client.table(CISCO_ENT_SENSOR)
  const sensors: SensorReading[] = []
  for (const { index, cells } of rows) {
    const type = TYPES[int(cells.type) ?? 0]
    if (index.length !== 1 || type === undefined) continue
    sensors.push({ index: index[0]!, type, value: reading(cells) })
  }
  const ports = new Map<number, number>()
  if (sensors.length === 0) return { sensors, ports }
  for (const { index, cells } of await client.table(ENT_ALIAS)) {
    const target = str(cells.identifier)
    if (target?.startsWith(IF_INDEX) && index.length >= 1) ports.set(index[0]!, Number(target.slice(IF_INDEX.length)))
  }
  return { sensors, ports }
}
