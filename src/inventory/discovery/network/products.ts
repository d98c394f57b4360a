/**
 * What a sysObjectID says of a device by itself: the product object identifiers the vendors
 * publish for the value of sysObjectID, each naming one model. Facts from the vendors' MIBs:
 * CISCO-PRODUCTS-MIB (`ciscoProducts`, 1.3.6.1.4.1.9.1) for IOS and IOS-XE platforms,
 * CISCO-ENTITY-VENDORTYPE-OID-MIB (`cevChassis`, 1.3.6.1.4.1.9.12.3.1.3), which NX-OS answers
 * with, ARISTA-PRODUCTS-MIB (`aristaProducts`, 1.3.6.1.4.1.30065.1), JUNIPER-CHASSIS-DEFINES-MIB
 * (`jnxProductName`, 1.3.6.1.4.1.2636.1.1.1.2, and `jnxProductVariation`,
 * 1.3.6.1.4.1.2636.1.1.1.4) and NET-SNMP-TC (`netSnmpAgentOIDs`, 1.3.6.1.4.1.8072.3.2).
 *
 * A subtree says the vendor and, where every product under it runs one OS, the family; an exact
 * identifier also names the model and its platform. The table holds the common models of each
 * vendor, not every product the MIBs list: an identifier not in it still gets what its subtree says.
 * A stack of switches (cat29xxStack, cat38xxstack, the Catalyst 9300 stack) names no one model.
 */

export interface Product {
  vendor: string
  family: string | null
  platform: string | null
  model: string | null
}

interface Subtree {
  prefix: string
  vendor: string
  family: string | null
  /** Model, platform and (where it differs from the subtree's) family per identifier below `prefix`. */
  models: Readonly<Record<string, readonly [model: string, platform: string, family?: string]>>
}

const SUBTREES: readonly Subtree[] = [
  {
    // CISCO-PRODUCTS-MIB ciscoProducts: IOS and IOS-XE platforms
    prefix: '1.3.6.1.4.1.9.1',
    vendor: 'cisco',
    family: null,
    models: {
      '1208': ['', 'c2960', 'ios'],
      '1181': ['WS-C2960X-48FPD-L', 'c2960x', 'ios'],
      '1182': ['WS-C2960X-48LPD-L', 'c2960x', 'ios'],
      '1184': ['WS-C2960X-24PD-L', 'c2960x', 'ios'],
      '1189': ['WS-C2960X-48TS-L', 'c2960x', 'ios'],
      '1190': ['WS-C2960X-24TS-L', 'c2960x', 'ios'],
      '1258': ['WS-C2960S-48FPD-L', 'c2960s', 'ios'],
      '1224': ['WS-C3750X-24P', 'c3750e', 'ios'],
      '1225': ['WS-C3750X-48P', 'c3750e', 'ios'],
      '1641': ['WS-C3850-48P', 'cat3k', 'ios-xe'],
      '1642': ['WS-C3850-24P', 'cat3k', 'ios-xe'],
      '1643': ['WS-C3850-48T', 'cat3k', 'ios-xe'],
      '1644': ['WS-C3850-24T', 'cat3k', 'ios-xe'],
      '1745': ['', 'cat3k', 'ios-xe'],
      '1606': ['WS-C4500X-32', 'cat4500es8', 'ios-xe'],
      '2435': ['C9300-24T', 'cat9k', 'ios-xe'],
      '2436': ['C9300-24P', 'cat9k', 'ios-xe'],
      '2437': ['C9300-24U', 'cat9k', 'ios-xe'],
      '2439': ['C9300-48T', 'cat9k', 'ios-xe'],
      '2440': ['C9300-48P', 'cat9k', 'ios-xe'],
      '2441': ['C9300-48U', 'cat9k', 'ios-xe'],
      '2494': ['', 'cat9k', 'ios-xe'],
      '2566': ['C9500-32C', 'cat9k', 'ios-xe'],
      '2568': ['C9500-48Y4C', 'cat9k', 'ios-xe'],
      '2573': ['C9500-24Y4C', 'cat9k', 'ios-xe'],
      '2574': ['C9200L-24P-4X', 'cat9k', 'ios-xe'],
      '2575': ['C9200L-48P-4X', 'cat9k', 'ios-xe'],
      '2580': ['C9200-24T', 'cat9k', 'ios-xe'],
      '2587': ['C9200-48T', 'cat9k', 'ios-xe'],
      '2588': ['C9200-24P', 'cat9k', 'ios-xe'],
      '2589': ['C9200-48P', 'cat9k', 'ios-xe'],
      '2093': ['ISR4321', 'isr4300', 'ios-xe'],
      '2068': ['ISR4331', 'isr4300', 'ios-xe'],
      '1999': ['ISR4351', 'isr4300', 'ios-xe'],
      '1935': ['ISR4431', 'isr4400', 'ios-xe'],
      '1707': ['ISR4451-X', 'isr4400', 'ios-xe'],
      '2443': ['C1111-8P', 'isr1100', 'ios-xe'],
      '1165': ['ASR1001', 'asr1000', 'ios-xe'],
      '1861': ['ASR1001-X', 'asr1000', 'ios-xe'],
      '923': ['ASR1002', 'asr1000', 'ios-xe'],
      '1525': ['ASR1002-X', 'asr1000', 'ios-xe'],
      '1537': ['CSR1000V', 'csr1000v', 'ios-xe'],
      '2264': ['IOS-XRv 9000', 'xrv9k', 'ios-xr'],
    },
  },
  {
    // CISCO-ENTITY-VENDORTYPE-OID-MIB cevChassis: what NX-OS answers as sysObjectID
    prefix: '1.3.6.1.4.1.9.12.3.1.3',
    vendor: 'cisco',
    family: null,
    models: {
      '1812': ['N9K-C93180YC-EX', 'n9000', 'nx-os'],
      '1850': ['N9K-C93180YC-FX', 'n9000', 'nx-os'],
      '2193': ['N9K-C93180YC-FX3', 'n9000', 'nx-os'],
      '2010': ['N9K-C93240YC-FX2', 'n9000', 'nx-os'],
      '2237': ['N9K-C93360YC-FX2', 'n9000', 'nx-os'],
      '1955': ['N9K-C9336C-FX2', 'n9000', 'nx-os'],
      '2076': ['N9K-C9332C', 'n9000', 'nx-os'],
      '1954': ['N9K-C9364C', 'n9000', 'nx-os'],
      '1467': ['N9K-C9508', 'n9000', 'nx-os'],
      '1951': ['N9K-9000v', 'n9000', 'nx-os'],
      '1084': ['N5K-C5548UP', 'n5000', 'nx-os'],
      '1008': ['N5K-C5548P', 'n5000', 'nx-os'],
      '612': ['N7K-C7010', 'n7000', 'nx-os'],
      '777': ['N7K-C7018', 'n7000', 'nx-os'],
      '932': ['N7K-C7009', 'n7000', 'nx-os'],
      '1060': ['N3K-C3064PQ', 'n3000', 'nx-os'],
      '1697': ['N3K-C3232C', 'n3000', 'nx-os'],
    },
  },
  {
    // ARISTA-PRODUCTS-MIB aristaProducts: every product runs EOS
    prefix: '1.3.6.1.4.1.30065.1',
    vendor: 'arista',
    family: 'eos',
    models: {
      '3011.7504': ['DCS-7504', '7500'],
      '3011.7508': ['DCS-7508', '7500'],
      '3011.7504.1359': ['DCS-7504N', '7500'],
      '3011.7508.1359': ['DCS-7508N', '7500'],
      '3011.7010.427.48': ['DCS-7010T-48', '7010t'],
      '3011.7020.1964.48': ['DCS-7020TR-48', '7020tr'],
      '3011.7048.427.3648': ['DCS-7048T-A', '7048t'],
      '3011.7050.3095.32.3282': ['DCS-7050QX-32S', '7050qx'],
      '3011.7050.3741.64': ['DCS-7050SX-64', '7050sx'],
      '3011.7050.3741.72.2512': ['DCS-7050SX-72Q', '7050sx'],
      '3011.7050.3741.2.72.2512': ['DCS-7050SX2-72Q', '7050sx2'],
      '3011.7050.3741.3.48.1654.8': ['DCS-7050SX3-48YC8', '7050sx3'],
      '3011.7050.1958.64': ['DCS-7050TX-64', '7050tx'],
      '3011.7050.1958.3.48.2878.8': ['DCS-7050TX3-48C8', '7050tx3'],
      '3011.7050.2733.3.32.3282': ['DCS-7050CX3-32S', '7050cx3'],
      '3011.7060.2733.32.3282': ['DCS-7060CX-32S', '7060cx'],
      '3011.7260.2733.3.64': ['DCS-7260CX3-64', '7260cx3'],
      '3011.7280.3714.68': ['DCS-7280SE-68', '7280se'],
      '3011.7280.3735.48.2878.6': ['DCS-7280SR-48C6', '7280sr'],
      '3011.7280.3735.2.48.1654.6': ['DCS-7280SR2-48YC6', '7280sr2'],
      '3011.7280.3735.3.48.1654.8': ['DCS-7280SR3-48YC8', '7280sr3'],
      '3011.7280.2727.3.32.2129.4': ['DCS-7280CR3-32P4', '7280cr3'],
      '3011.7280.2727.3.32.1605.4': ['DCS-7280CR3-32D4', '7280cr3'],
      '2546.720.858.48.207.2': ['CCS-720XP-48ZC2', '720xp'],
      '2546.720.858.24.213.4': ['CCS-720XP-24ZY4', '720xp'],
      '2759': ['vEOS', 'veos'],
    },
  },
  {
    // JUNIPER-CHASSIS-DEFINES-MIB jnxProductName: every product runs Junos
    prefix: '1.3.6.1.4.1.2636.1.1.1.2',
    vendor: 'juniper',
    family: 'junos',
    models: {
      '21': ['MX960', 'mx'],
      '25': ['MX480', 'mx'],
      '29': ['MX240', 'mx'],
      '57': ['MX80', 'mx'],
      '97': ['MX104', 'mx'],
      '108': ['VMX', 'mx'],
      '144': ['MX204', 'mx'],
      '43': ['EX2200', 'ex'],
      '132': ['EX2300', 'ex'],
      '76': ['EX3300', 'ex'],
      '131': ['EX3400', 'ex'],
      '31': ['EX4200', 'ex'],
      '63': ['EX4300', 'ex'],
      '109': ['EX4600', 'ex'],
      '104': ['EX9204', 'ex'],
      '103': ['EX9208', 'ex'],
      '102': ['EX9214', 'ex'],
      '133': ['SRX300', 'srx'],
      '135': ['SRX340', 'srx'],
      '136': ['SRX345', 'srx'],
      '137': ['SRX1500', 'srx'],
      '142': ['SRX4100', 'srx'],
      '143': ['SRX4200', 'srx'],
      '26': ['SRX5800', 'srx'],
      '129': ['VSRX', 'srx'],
      '130': ['PTX1000', 'ptx'],
      '147': ['PTX10008', 'ptx'],
      '148': ['ACX5448', 'acx'],
    },
  },
  {
    // JUNIPER-CHASSIS-DEFINES-MIB jnxProductVariation: QFX switches answer with their variation
    prefix: '1.3.6.1.4.1.2636.1.1.1.4',
    vendor: 'juniper',
    family: 'junos',
    models: {
      '82.4': ['QFX5100-24Q', 'qfx'],
      '82.5': ['QFX5100-48S-6Q', 'qfx'],
      '82.6': ['QFX5100-96S-8Q', 'qfx'],
      '82.7': ['QFX5100-48C-6Q', 'qfx'],
      '82.9': ['QFX5100-48T-6Q', 'qfx'],
      '82.17': ['QFX5110-48S-4C', 'qfx'],
      '82.18': ['QFX5110-32Q', 'qfx'],
      '82.22': ['QFX5120-48Y-8C', 'qfx'],
    },
  },
  // the rest of Juniper's product identifiers (jnxProducts)
  { prefix: '1.3.6.1.4.1.2636.1', vendor: 'juniper', family: 'junos', models: {} },
  // NET-SNMP-TC netSnmpAgentOIDs: the agent's operating system
  { prefix: '1.3.6.1.4.1.8072.3.2', vendor: 'net-snmp', family: null, models: { '10': ['', '', 'linux'], '8': ['', '', 'freebsd'], '7': ['', '', 'netbsd'] } },
]

const strip = (oid: string) => oid.replace(/^\./, '')

/** What the vendors' MIBs say of a sysObjectID, or null when no subtree of the table holds it. */
export function productOf(objectId: string | null): Product | null {
  if (!objectId) return null
  const oid = strip(objectId.trim())
  for (const s of SUBTREES) {
    if (oid !== s.prefix && !oid.startsWith(`${s.prefix}.`)) continue
    const hit = s.models[oid.slice(s.prefix.length + 1)]
    if (!hit) return { vendor: s.vendor, family: s.family, platform: null, model: null }
    const [model, platform, family] = hit
    return { vendor: s.vendor, family: family ?? s.family, platform: platform || null, model: model || null }
  }
  return null
}
