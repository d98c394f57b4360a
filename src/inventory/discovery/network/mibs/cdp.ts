/** CISCO-CDP-MIB cdpCacheTable: neighbours seen by CDP (index: ifIndex, device index). */
import type { MibReader } from '../snmp/client.js'
import { int, text, type Vb } from '../snmp/values.js'
import type { CdpNeighbor } from '../model.js'

const BASE = '1.3.6.1.4.1.9.9.23.1.2.1.1'
export const CDP_CACHE = {
  addressType: `${BASE}.3`,
  address: `${BASE}.4`,
  deviceId: `${BASE}.6`,
  port: `${BASE}.7`,
  platform: `${BASE}.8`,
}

/** cdpCacheAddress is four octets when cdpCacheAddressType is ip(1). */
function address(type: Vb | undefined, value: Vb | undefined): string | null {
  if (int(type) !== 1 || !value || !Buffer.isBuffer(value.value) || value.value.length !== 4) return null
  return [...value.value].join('.')
}

export async function collectCdp(client: MibReader): Promise<CdpNeighbor[]> {
  return (await client.table(CDP_CACHE)).map(({ index, cells }) => ({
    ifIndex: index[0]!,
    deviceId: text(cells.deviceId) || null,
    address: address(cells.addressType, cells.address),
    port: text(cells.port) || null,
    platform: text(cells.platform) || null,
  }))
}
