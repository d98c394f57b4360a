/**
 * Rows of interfaces/transceivers/statistics: the optics levels of each transceiver (digital
 * optical monitoring), from the device's sensor readings. A sensor belongs to the interface of
 * the first ENTITY-MIB entry above it (or itself) that entAliasMappingTable ties to an interface,
 * else whose name is the interface's name or description ("Te1/1/1", "TenGigabitEthernet1/1/1").
 * What it measures is its type (°C: temperature, volts: supply voltage, amperes: laser bias
 * current) and, for optical power (dBm, or watts turned into dBm), its name: receive or transmit
 * ("Rx", "Receive", "Tx", "Transmit"). A name with "Lane N" is one lane of a multi-lane optic: such
 * an optic has a row per lane (`channel`), each with the module's temperature and voltage. A
 * Juniper device's optics come by interface from JUNIPER-DOM-MIB (mibs/juniper-dom.ts), lanes as
 * Junos numbers them.
 */
import type { Row } from '../../../simulator/index.js'
import type { Device, Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { decimal } from '../snmp/values.js'
import type { EntityPart, OpticLevels, OpticReadings, SensorReading } from '../model.js'

type Measure = keyof OpticLevels

const RX = /\b(rx|receive|receiver|input)\b/i
const TX = /\b(tx|transmit|transmitter|output)\b/i
const LANE = /\blane\s*(\d+)/i

/**
 * What a sensor measures and its reading in the column's unit (°C, V, mA, dBm) with the precision
 * the device gives it, or null when it is nothing an optic's row holds. A power in watts is turned
 * into dBm with two decimals; no power (0 W) has none.
 */
function measureOf(sensor: SensorReading, name: string): [Measure, number | null] | null {
  const v = sensor.value
  switch (sensor.type) {
    case 'celsius':
      return ['temperature', v]
    case 'voltsDC':
      return ['voltage', v]
    case 'amperes':
      return TX.test(name) || !RX.test(name) ? ['txBias', v === null ? null : decimal(v * 1000)] : null
    case 'dBm':
    case 'watts': {
      const dbm = v === null || sensor.type === 'dBm' ? v : v > 0 ? Number((10 * Math.log10(v * 1000)).toFixed(2)) : null
      if (RX.test(name)) return ['rxPower', dbm]
      if (TX.test(name)) return ['txPower', dbm]
      return null
    }
  }
}

/** The interface of a physical entry: its own alias mapping or name, else its container's, up the tree. */
function interfaceOf(dev: Device, byIndex: ReadonlyMap<number, EntityPart>, byName: ReadonlyMap<string, number>, start: number): number | undefined {
  const seen = new Set<number>()
  for (let at: number | null | undefined = start; at != null && !seen.has(at); at = byIndex.get(at)?.parent) {
    seen.add(at)
    const mapped = dev.d.entityPorts.get(at)
    if (mapped !== undefined && dev.ifByIndex.has(mapped)) return mapped
    const e = byIndex.get(at)
    for (const text of [e?.name, e?.descr]) {
      const ifIndex = text ? byName.get(text.toLowerCase()) : undefined
      if (ifIndex !== undefined) return ifIndex
    }
  }
  return undefined
}

const empty = (): OpticLevels => ({ temperature: null, voltage: null, txBias: null, txPower: null, rxPower: null })

/** The optics of a device's sensors, by ifIndex: a sensor naming a lane is that lane's, the others the module's. */
function sensorOptics(dev: Device): Map<number, OpticReadings> {
  const optics = new Map<number, OpticReadings>()
  if (dev.d.sensors.length === 0) return optics
  const byIndex = new Map(dev.d.entity.map((e) => [e.index, e]))
  const byName = new Map<string, number>()
  for (const i of dev.d.interfaces) {
    for (const text of [i.name, i.descr]) if (text && !byName.has(text.toLowerCase())) byName.set(text.toLowerCase(), i.index)
  }
  for (const sensor of dev.d.sensors) {
    const entry = byIndex.get(sensor.index)
    const name = `${entry?.name ?? ''} ${entry?.descr ?? ''}`
    const measure = measureOf(sensor, name)
    const ifIndex = interfaceOf(dev, byIndex, byName, entry?.parent ?? sensor.index)
    if (!measure || ifIndex === undefined) continue
    let optic = optics.get(ifIndex)
    if (!optic) optics.set(ifIndex, (optic = { module: empty(), lanes: new Map() }))
    const lane = LANE.exec(name)?.[1]
    let levels = optic.module
    if (lane !== undefined) {
      const n = Number(lane)
      levels = optic.lanes.get(n) ?? empty()
      optic.lanes.set(n, levels)
    }
    levels[measure[0]] = measure[1]
  }
  return optics
}

export function* opticsRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const optics = new Map([...sensorOptics(dev), ...dev.d.dom])
    for (const [ifIndex, { module, lanes }] of [...optics].sort((a, b) => a[0] - b[0])) {
      const iface = dev.ifByIndex.get(ifIndex)
      if (!iface) continue
      // a multi-lane optic: a row per lane, with the module's temperature and voltage
      const rows: Array<[number | null, OpticLevels]> = lanes.size === 0 ? [[null, module]] : [...lanes].sort((a, b) => a[0] - b[0])
      for (const [channel, levels] of rows) {
        yield {
          sn: dev.sn,
          hostname: dev.hostname,
          siteName: dev.siteName,
          id: channel === null ? `${dev.sn}/${ifIndex}` : `${dev.sn}/${ifIndex}/${channel}`,
          intName: shortName(iface.name),
          channel,
          temperature: levels.temperature ?? module.temperature,
          voltage: levels.voltage ?? module.voltage,
          txBias: levels.txBias,
          txPower: levels.txPower,
          rxPower: levels.rxPower,
        }
      }
    }
  }
}
