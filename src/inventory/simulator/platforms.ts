/**
 * Hardware and software the simulator deploys, per device role: real vendors, OS families,
 * platforms, models, software versions and the way each names its interfaces.
 */
import type { NamingStyle } from './naming.js'

export type Role = 'router' | 'dist' | 'fw' | 'access' | 'ap'

export const DEV_TYPE: Readonly<Record<Role, string>> = { router: 'router', dist: 'l3switch', fw: 'fw', access: 'switch', ap: 'ap' }

export interface Platform {
  vendor: string
  family: string
  platform: string
  model: string
  versions: readonly string[]
  image: (version: string) => string
  processor: string
  memoryBytes: number
  /** IEEE OUI (24 bits) of the vendor's MAC addresses. */
  oui: number
  /** Serial number prefix. */
  snPrefix: string
  /**
   * sysObjectID: the vendor's product identifier (CISCO-PRODUCTS-MIB, CISCO-ENTITY-VENDORTYPE-OID-MIB
   * for NX-OS, JUNIPER-CHASSIS-DEFINES-MIB, ARISTA-PRODUCTS-MIB, ARUBAWIRED-NETWORKING-OID and
   * ARUBA-MIB, FORTINET-FORTIGATE-MIB, PAN-PRODUCTS-MIB); an access switch, a stack, answers its
   * series' stack identifier where the vendor has one.
   */
  objectId: string
  naming: NamingStyle
  /** Front-panel ports per slot / stack member. */
  ports: number
  /** Speed of front-panel ports in bits per second. */
  portSpeed: number
  uplinks: number
  uplinkSpeed: number
  /** Whether the device supports `show version` config-register (Cisco IOS family). */
  configReg: boolean
  /** Power supplies and fan trays reported in its inventory. */
  psus: number
  fans: number
}

const G = 1_000_000_000
const GB = 1024 * 1024 * 1024

const CISCO = 0x00_1e_7a
const JUNIPER = 0x2c_6b_f5
const ARISTA = 0x44_4c_a8
const ARUBA = 0x88_3a_30
const FORTINET = 0x00_09_0f
const PALOALTO = 0x00_1b_17

const iosxeImage = (v: string) => `cat9k_iosxe.${v}.SPA.bin`
const base = { configReg: false, psus: 2, fans: 1 }

const ISR4451: Platform = { ...base, vendor: 'cisco', family: 'ios-xe', platform: 'isr4400', model: 'ISR4451-X/K9', versions: ['17.3.4a', '17.6.5', '17.9.4a'], image: (v) => `isr4400-universalk9.${v}.SPA.bin`, processor: 'Intel Xeon D-1500 (8 core)', memoryBytes: 8 * GB, oui: CISCO, snPrefix: 'FGL', objectId: '1.3.6.1.4.1.9.1.1707', naming: 'iosxeRouter', ports: 4, portSpeed: G, uplinks: 2, uplinkSpeed: 10 * G, configReg: true, fans: 3 }
const ASR1001: Platform = { ...ISR4451, platform: 'asr1000', model: 'ASR1001-X', image: (v) => `asr1001x-universalk9.${v}.SPA.bin`, processor: 'Intel Xeon (4 core)', memoryBytes: 16 * GB, snPrefix: 'FXS', objectId: '1.3.6.1.4.1.9.1.1861', ports: 6, uplinks: 2 }
const MX204: Platform = { ...base, vendor: 'juniper', family: 'junos', platform: 'mx', model: 'MX204', versions: ['21.4R3-S4', '22.2R3-S1', '22.4R2'], image: (v) => `junos-vmhost-install-mx-x86-64-${v}.tgz`, processor: 'Intel Xeon D-1541', memoryBytes: 32 * GB, oui: JUNIPER, snPrefix: 'BH', objectId: '1.3.6.1.4.1.2636.1.1.1.2.144', naming: 'junosRouter', ports: 8, portSpeed: 10 * G, uplinks: 4, uplinkSpeed: 100 * G, fans: 3 }

const N93180: Platform = { ...base, vendor: 'cisco', family: 'nx-os', platform: 'n9000', model: 'N9K-C93180YC-FX', versions: ['9.3(10)', '9.3(12)', '10.2(5)'], image: (v) => `nxos64-cs.${v.replace(/[()]/g, '.')}F.bin`, processor: 'Intel Xeon D-1526', memoryBytes: 24 * GB, oui: CISCO, snPrefix: 'FDO', objectId: '1.3.6.1.4.1.9.12.3.1.3.1850', naming: 'nxos', ports: 48, portSpeed: 25 * G, uplinks: 6, uplinkSpeed: 100 * G, fans: 4 }
const C9500: Platform = { ...base, vendor: 'cisco', family: 'ios-xe', platform: 'c9500', model: 'C9500-48Y4C', versions: ['17.6.5', '17.9.4a', '17.12.2'], image: iosxeImage, processor: 'Intel x86 (8 core)', memoryBytes: 16 * GB, oui: CISCO, snPrefix: 'FCW', objectId: '1.3.6.1.4.1.9.1.2568', naming: 'iosxe', ports: 48, portSpeed: 25 * G, uplinks: 4, uplinkSpeed: 100 * G, configReg: true, fans: 4 }
const A7280: Platform = { ...base, vendor: 'arista', family: 'eos', platform: '7280r3', model: 'DCS-7280SR3-48YC8', versions: ['4.28.3M', '4.29.4M', '4.30.1F'], image: (v) => `EOS-${v}.swi`, processor: 'AMD GX-424CC', memoryBytes: 16 * GB, oui: ARISTA, snPrefix: 'JPE', objectId: '1.3.6.1.4.1.30065.1.3011.7280.3735.3.48.1654.8', naming: 'eos', ports: 48, portSpeed: 25 * G, uplinks: 8, uplinkSpeed: 100 * G, fans: 4 }
const QFX5120: Platform = { ...base, vendor: 'juniper', family: 'junos', platform: 'qfx', model: 'QFX5120-48Y-8C', versions: ['21.4R3-S4', '22.2R3-S1'], image: (v) => `jinstall-host-qfx-5e-x86-64-${v}-secure-signed.tgz`, processor: 'Intel Xeon D-1527', memoryBytes: 16 * GB, oui: JUNIPER, snPrefix: 'WS', objectId: '1.3.6.1.4.1.2636.1.1.1.4.82.22', naming: 'junos', ports: 48, portSpeed: 25 * G, uplinks: 8, uplinkSpeed: 100 * G, fans: 5 }

const C9300: Platform = { ...base, vendor: 'cisco', family: 'ios-xe', platform: 'c9300', model: 'C9300-48P', versions: ['17.3.4a', '17.6.5', '17.9.4a'], image: iosxeImage, processor: 'ARM Cortex-A53 (4 core)', memoryBytes: 8 * GB, oui: CISCO, snPrefix: 'FOC', objectId: '1.3.6.1.4.1.9.1.2494', naming: 'iosxe', ports: 48, portSpeed: G, uplinks: 4, uplinkSpeed: 10 * G, configReg: true, fans: 3 }
const C2960X: Platform = { ...C9300, family: 'ios', platform: 'c2960x', model: 'WS-C2960X-48FPD-L', versions: ['15.2(7)E7', '15.2(7)E9'], image: (v) => `c2960x-universalk9-mz.${v.replace(/[()]/g, '-')}.bin`, processor: 'APM86xxx', memoryBytes: 512 * 1024 * 1024, snPrefix: 'FCW', objectId: '1.3.6.1.4.1.9.1.1208', uplinks: 2, psus: 1, fans: 1 }
const EX4300: Platform = { ...base, vendor: 'juniper', family: 'junos', platform: 'ex4300', model: 'EX4300-48P', versions: ['20.4R3-S8', '21.4R3-S4'], image: (v) => `jinstall-ex-4300-${v}-signed.tgz`, processor: 'Freescale P2020', memoryBytes: 2 * GB, oui: JUNIPER, snPrefix: 'PE', objectId: '1.3.6.1.4.1.2636.1.1.1.2.63', naming: 'junos', ports: 48, portSpeed: G, uplinks: 4, uplinkSpeed: 10 * G, fans: 2 }
const A720XP: Platform = { ...base, vendor: 'arista', family: 'eos', platform: '720xp', model: 'CCS-720XP-48ZC2', versions: ['4.28.3M', '4.29.4M'], image: (v) => `EOS-${v}.swi`, processor: 'AMD GX-224IJ', memoryBytes: 8 * GB, oui: ARISTA, snPrefix: 'JAS', objectId: '1.3.6.1.4.1.30065.1.2546.720.858.48.207.2', naming: 'eos', ports: 48, portSpeed: 2.5 * G, uplinks: 4, uplinkSpeed: 25 * G, fans: 3 }
const CX6300: Platform = { ...base, vendor: 'aruba', family: 'aos-cx', platform: 'cx6300', model: 'JL661A 6300M 48G PoE+', versions: ['10.10.1080', '10.11.1021', '10.12.1000'], image: (v) => `ArubaOS-CX_6300_${v.replace(/\./g, '_')}.swi`, processor: 'ARM Cortex-A72', memoryBytes: 8 * GB, oui: ARUBA, snPrefix: 'SG', objectId: '1.3.6.1.4.1.47196.4.1.1.1.103', naming: 'aoscx', ports: 48, portSpeed: G, uplinks: 4, uplinkSpeed: 25 * G, fans: 2 }

const FG600E: Platform = { ...base, vendor: 'fortinet', family: 'fortios', platform: 'fortigate', model: 'FortiGate-600E', versions: ['7.0.12', '7.2.5', '7.4.1'], image: (v) => `FGT_600E-v${v.split('.')[0]}-build.out`, processor: 'Intel Xeon E3', memoryBytes: 16 * GB, oui: FORTINET, snPrefix: 'FG6H0E', objectId: '1.3.6.1.4.1.12356.101.1.6005', naming: 'fortios', ports: 16, portSpeed: G, uplinks: 2, uplinkSpeed: 10 * G, fans: 2 }
const PA3220: Platform = { ...base, vendor: 'paloalto', family: 'pan-os', platform: 'pa-3200', model: 'PA-3220', versions: ['10.1.11', '10.2.7', '11.0.3'], image: (v) => `PanOS_3200-${v}`, processor: 'Intel Xeon D', memoryBytes: 16 * GB, oui: PALOALTO, snPrefix: '0132', objectId: '1.3.6.1.4.1.25461.2.3.43', naming: 'panos', ports: 12, portSpeed: G, uplinks: 4, uplinkSpeed: 10 * G, fans: 2 }

const C9120: Platform = { ...base, vendor: 'cisco', family: 'ap-cos', platform: 'c9120', model: 'C9120AXI-E', versions: ['17.9.4.27', '17.12.2.35'], image: (v) => `ap1g6a-k9w8-${v}`, processor: 'ARMv8', memoryBytes: 2 * GB, oui: CISCO, snPrefix: 'FJC', objectId: '1.3.6.1.4.1.9.1.2849', naming: 'ap', ports: 1, portSpeed: 2.5 * G, uplinks: 0, uplinkSpeed: 0, psus: 0, fans: 0 }
const AP515: Platform = { ...C9120, vendor: 'aruba', family: 'aos-ap', platform: 'ap-510', model: 'AP-515', versions: ['8.10.0.6', '8.11.2.0'], image: (v) => `ArubaInstant_Hercules_${v}`, oui: ARUBA, snPrefix: 'CNK', objectId: '1.3.6.1.4.1.14823.1.2.107' }

/** Platforms per role with weights (a site takes one vendor family per role). */
export const PLATFORMS: Readonly<Record<Role, ReadonlyArray<readonly [Platform, number]>>> = {
  router: [[ISR4451, 5], [ASR1001, 2], [MX204, 2]],
  dist: [[N93180, 4], [C9500, 3], [A7280, 2], [QFX5120, 1]],
  fw: [[FG600E, 3], [PA3220, 2]],
  access: [[C9300, 6], [C2960X, 1], [EX4300, 2], [A720XP, 1], [CX6300, 2]],
  ap: [[C9120, 3], [AP515, 2]],
}

/** OUIs of end-host vendors (24-bit), by host type. */
export const HOST_VENDORS = [
  { type: 'workstation', vendor: 'Dell Inc.', oui: 0xf8_bc_12, weight: 5 },
  { type: 'workstation', vendor: 'Lenovo', oui: 0x54_ee_75, weight: 4 },
  { type: 'workstation', vendor: 'Apple, Inc.', oui: 0xa4_83_e7, weight: 3 },
  { type: 'phone', vendor: 'Cisco Systems, Inc', oui: 0x00_1b_d4, weight: 3 },
  { type: 'phone', vendor: 'Polycom', oui: 0x00_04_f2, weight: 1 },
  { type: 'printer', vendor: 'Hewlett Packard', oui: 0x00_1e_0b, weight: 1 },
  { type: 'camera', vendor: 'Axis Communications AB', oui: 0x00_40_8c, weight: 1 },
  { type: 'server', vendor: 'Super Micro Computer, Inc.', oui: 0x0c_c4_7a, weight: 1 },
] as const

/** Vendor names of network-device OUIs, for the vendor column of ARP and MAC rows. */
export const OUI_VENDOR: ReadonlyMap<number, string> = new Map([
  [CISCO, 'Cisco Systems, Inc'],
  [JUNIPER, 'Juniper Networks'],
  [ARISTA, 'Arista Networks'],
  [ARUBA, 'Hewlett Packard Enterprise'],
  [FORTINET, 'Fortinet, Inc.'],
  [PALOALTO, 'Palo Alto Networks'],
])

export interface Milestones {
  endSale: number
  endMaintenance: number | null
  endSupport: number
  replacement: string | null
}

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`)

/**
 * End-of-life milestones of the simulated vendors' parts (simulated data in the shape vendors
 * publish: end of sale, of software maintenance, of support, and the named replacement).
 */
export const MILESTONES: ReadonlyMap<string, Milestones> = new Map([
  ['WS-C2960X-48FPD-L', { endSale: day('2022-10-30'), endMaintenance: day('2023-10-30'), endSupport: day('2027-10-31'), replacement: 'C9200L-48P-4X' }],
  ['ISR4451-X/K9', { endSale: day('2024-11-07'), endMaintenance: day('2025-11-07'), endSupport: day('2029-11-30'), replacement: 'C8300-2N2S-6T' }],
  ['ASR1001-X', { endSale: day('2025-08-01'), endMaintenance: day('2026-08-01'), endSupport: day('2030-07-31'), replacement: 'C8500-12X' }],
  ['EX4300-48P', { endSale: day('2023-06-30'), endMaintenance: day('2026-06-30'), endSupport: day('2028-06-30'), replacement: 'EX4400-48P' }],
  ['FortiGate-600E', { endSale: day('2023-06-30'), endMaintenance: null, endSupport: day('2028-06-30'), replacement: 'FortiGate-600F' }],
])
