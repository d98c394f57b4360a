/**
 * Vendor, OS family, platform, model and software version of a device from what SNMPv2-MIB
 * says: the enterprise number of sysObjectID names the vendor, each vendor's sysDescr has a
 * shape of its own, the product identifier itself names a model (products.ts), and the chassis
 * of ENTITY-MIB its orderable model. A field none of them carries stays null.
 */
import { productOf } from './products.js'

export interface Identity {
  vendor: string | null
  family: string | null
  platform: string | null
  model: string | null
  version: string | null
}

/** IANA private enterprise numbers of network vendors → vendor name as the product shows it. */
export const ENTERPRISES: Readonly<Record<number, string>> = {
  9: 'cisco',
  11: 'hp',
  43: '3com',
  171: 'dlink',
  674: 'dell',
  1916: 'extreme',
  1991: 'brocade',
  2011: 'huawei',
  2620: 'checkpoint',
  2636: 'juniper',
  3375: 'f5',
  4526: 'netgear',
  6027: 'dell',
  6486: 'alcatel-lucent',
  6527: 'nokia',
  8072: 'net-snmp',
  11863: 'tp-link',
  12356: 'fortinet',
  14179: 'cisco',
  14823: 'aruba',
  14988: 'mikrotik',
  25461: 'paloalto',
  25506: 'h3c',
  30065: 'arista',
  40310: 'cumulus',
  41112: 'ubiquiti',
  47196: 'aruba',
}

/** Enterprise number of a sysObjectID under 1.3.6.1.4.1, null otherwise. */
export function enterpriseOf(objectId: string | null): number | null {
  const m = objectId ? /^\.?1\.3\.6\.1\.4\.1\.(\d+)(\.|$)/.exec(objectId) : null
  return m ? Number(m[1]) : null
}

const none: Identity = { vendor: null, family: null, platform: null, model: null, version: null }

type Parser = (descr: string) => Partial<Identity> | null

const first = (re: RegExp, s: string) => re.exec(s)?.[1] ?? null

/** Cisco: IOS, IOS-XE, IOS-XR, NX-OS and ASA. */
const cisco: Parser = (d) => {
  const nx = /Cisco NX-OS(?:\(tm\))?\s+([\w-]+),\s*Software[^,]*,\s*Version\s+([^\s,]+)/i.exec(d)
  if (nx) return { family: 'nx-os', platform: nx[1]!.toLowerCase(), version: nx[2]! }
  const xr = /Cisco IOS XR Software\s*\(Cisco\s+([\w-]+)[^)]*\),\s*Version\s+([\w.]+)/i.exec(d)
  if (xr) return { family: 'ios-xr', platform: xr[1]!.toLowerCase(), version: xr[2]! }
  const asa = /Cisco Adaptive Security Appliance Version\s+([\w.()]+)/i.exec(d)
  if (asa) return { family: 'asa', version: asa[1]! }
  if (!/Cisco IOS/i.test(d)) return null
  const version = first(/Version\s+([^\s,]+)/, d)
  const image = first(/\(([\w-]+)\),\s*Version/, d)
  const xe = /IOS[- ]XE|IOSXE|\bX86_64_LINUX_IOSD\b|cat9k|CAT9K/i.test(d)
  // the image names the platform ("C2960-LANBASEK9-M", "CAT9K_IOSXE"), except the generic IOS-XE router image
  const platform = image && !/^X86_64_LINUX_IOSD/i.test(image) ? image.split('-')[0]!.toLowerCase().replace(/_iosxe$/, '') : null
  return { family: xe ? 'ios-xe' : 'ios', platform, version }
}

/** Juniper Junos: "Juniper Networks, Inc. ex4300-48t Ethernet Switch, kernel JUNOS 18.4R2-S3.2, ...". */
const juniper: Parser = (d) => {
  const m = /Juniper Networks,\s*Inc\.\s+([\w-]+)\s.*?JUNOS\s+([\w.-]+)/i.exec(d)
  if (!m) return /JUNOS/i.test(d) ? { family: 'junos', version: first(/JUNOS\s+([\w.-]+)/i, d) } : null
  const model = m[1]!
  return { family: 'junos', model: model.toUpperCase(), platform: model.split('-')[0]!.replace(/\d+.*$/, '').toLowerCase() || null, version: m[2]!.replace(/,$/, '') }
}

/** Arista EOS: "Arista Networks EOS version 4.24.2.4F running on an Arista Networks DCS-7050SX3-48YC8". */
const arista: Parser = (d) => {
  const m = /EOS version\s+([\w.-]+)\s+running on an? Arista Networks\s+([\w-]+)/i.exec(d)
  if (!m) return null
  const model = m[2]!
  const platform = /^(?:DCS-|CCS-)?(\d{4}\w*?)(?:-|$)/i.exec(model)?.[1]?.toLowerCase() ?? null
  return { family: 'eos', version: m[1]!, model, platform }
}

/** Huawei VRP: "... VRP (R) software, Version 5.170 (S5720 V200R011C10SPC500) ... HUAWEI S5720-28X-PWR-SI-AC". */
const huawei: Parser = (d) => {
  const m = /VRP \(R\) software,\s*Version\s+([\d.]+)\s*\((\S+)\s+(V\w+)\)/i.exec(d)
  if (!m) return null
  return { family: 'vrp', platform: m[2]!.toLowerCase(), version: m[3]!, model: first(/HUAWEI\s+(\S+)\s*$/m, d.trim()) }
}

/** Aruba AOS-CX: "Aruba JL658A 6300M 24SFP+ 4SFP56 Swch FL.10.08.1010". */
const aruba: Parser = (d) => {
  const m = /^Aruba\s+(\w+)\s+(\w+).*?\s([A-Z]{2}\.\d{2}\.\d{2}\.\d+)\s*$/i.exec(d.trim())
  return m ? { family: 'aos-cx', model: m[1]!, platform: m[2]!.toLowerCase(), version: m[3]! } : null
}

/** MikroTik RouterOS: "RouterOS RB4011iGS+". */
const mikrotik: Parser = (d) => {
  const m = /^RouterOS\s+(\S+)/i.exec(d.trim())
  return m ? { family: 'routeros', model: m[1]! } : null
}

/** Linux (net-snmp's agent): "Linux r1 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64". */
const linux: Parser = (d) => {
  const m = /^Linux\s+\S+\s+(\S+)\s.*?\s(x86_64|aarch64|armv\w+|i[3-6]86|mips\w*|ppc\w*|riscv64)\s*$/.exec(d.trim())
  if (m) return { vendor: 'linux', family: 'linux', version: m[1]!, platform: m[2]! }
  return /^Linux\s/.test(d) ? { vendor: 'linux', family: 'linux', version: first(/^Linux\s+\S+\s+(\S+)/, d) } : null
}

/** Cumulus Linux: "Cumulus Linux version 4.2.0 running on Mellanox Technologies Ltd. MSN2410". */
const cumulus: Parser = (d) => {
  const m = /Cumulus Linux version\s+([\w.-]+)(?:\s+running on\s+(.*?)\s+(\S+))?\s*$/i.exec(d.trim())
  return m ? { family: 'cumulus-linux', version: m[1]!, model: m[3] ?? null } : null
}

const PARSERS: Readonly<Record<string, Parser>> = { cisco, juniper, arista, huawei, aruba, mikrotik, 'net-snmp': linux, cumulus }

/**
 * Identity of a device. The vendor comes from the enterprise number; family, platform and
 * version from the vendor's sysDescr parser (when the enterprise is unknown, each parser is
 * tried in turn); what the text leaves out from the product table of the vendors' MIBs. The model
 * is the chassis's entPhysicalModelName when the device has one (the orderable part number of
 * the very box), else the text's, else the product table's.
 */
export function identify(objectId: string | null, descr: string | null, chassisModel: string | null = null): Identity {
  const fromText = identifyText(objectId, descr)
  const product = productOf(objectId)
  const family = fromText.family ?? product?.family ?? null
  const named = fromText.vendor ?? product?.vendor ?? null
  // net-snmp's agent names the operating system it runs on; Linux devices are shown as linux
  const vendor = named === 'net-snmp' && family === 'linux' ? 'linux' : named
  return {
    vendor,
    family,
    platform: fromText.platform ?? product?.platform ?? null,
    model: chassisModel ?? fromText.model ?? product?.model ?? null,
    version: fromText.version,
  }
}

function identifyText(objectId: string | null, descr: string | null): Identity {
  const enterprise = enterpriseOf(objectId)
  const vendor = enterprise === null ? null : (ENTERPRISES[enterprise] ?? null)
  const text = (descr ?? '').replace(/\r/g, '')
  const parser = vendor ? PARSERS[vendor] : undefined
  const candidates = parser ? [[vendor, parser] as const] : Object.entries(PARSERS)
  for (const [name, parse] of candidates) {
    const found = text ? parse(text) : null
    if (!found) continue
    const v = found.vendor ?? (vendor ?? (name === 'net-snmp' ? null : name))
    return { ...none, ...found, vendor: v }
  }
  return { ...none, vendor }
}
