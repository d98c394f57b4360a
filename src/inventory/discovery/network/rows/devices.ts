/** Rows of inventory/devices: one per device, from SNMPv2-MIB, ENTITY-MIB and HOST-RESOURCES-MIB. */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'
import { stpDomain } from './stp.js'

export function* deviceRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const { d, identity } = dev
    const mem = d.memory
    yield {
      id: dev.sn,
      sn: dev.sn,
      snHw: dev.snHw,
      hostname: dev.hostname,
      siteName: dev.siteName,
      vendor: identity.vendor,
      family: identity.family,
      platform: identity.platform,
      model: identity.model,
      version: identity.version,
      image: null,
      devType: dev.devType,
      loginIp: d.address,
      loginType: 'snmp',
      mac: dev.chassisMac,
      uptime: d.system.uptimeSeconds,
      reload: null,
      memoryTotalBytes: mem?.totalBytes ?? null,
      memoryUsedBytes: mem?.usedBytes ?? null,
      memoryUtilization: mem && mem.totalBytes > 0 ? Math.round((mem.usedBytes / mem.totalBytes) * 10000) / 100 : null,
      processor: null,
      fqdn: dev.fqdn,
      domain: dev.domain,
      stpDomain: stpDomain(dev),
      configReg: null,
      objectId: d.system.objectId,
      taskKey: net.taskKey,
      slug: dev.hostname.toLowerCase(),
    }
  }
}
