/**
 * Interface naming per operating system family: the name a device reports (original) and the
 * normalised short form the product shows (intName).
 */

export interface PortName {
  original: string
  name: string
}

export interface Naming {
  /** Front-panel port `n` (1-based) of stack member / slot `member` (1-based). */
  port(member: number, n: number): PortName
  /** Uplink `n` (1-based). */
  uplink(n: number): PortName
  mgmt: PortName
  loopback(n: number): PortName
  svi(vlan: number): PortName
  sub(parent: PortName, vlan: number): PortName
  lag(n: number): PortName
}

const p = (original: string, name: string = original): PortName => ({ original, name })
const sub = (parent: PortName, vlan: number) => p(`${parent.original}.${vlan}`, `${parent.name}.${vlan}`)

export const NAMING = {
  iosxe: {
    port: (m, n) => p(`GigabitEthernet${m}/0/${n}`, `Gi${m}/0/${n}`),
    uplink: (n) => p(`TenGigabitEthernet1/1/${n}`, `Te1/1/${n}`),
    mgmt: p('GigabitEthernet0/0', 'Gi0/0'),
    loopback: (n) => p(`Loopback${n}`, `Lo${n}`),
    svi: (v) => p(`Vlan${v}`, `Vl${v}`),
    sub,
    lag: (n) => p(`Port-channel${n}`, `Po${n}`),
  },
  iosxeRouter: {
    port: (m, n) => p(`GigabitEthernet0/${m - 1}/${n - 1}`, `Gi0/${m - 1}/${n - 1}`),
    uplink: (n) => p(`TenGigabitEthernet0/1/${n - 1}`, `Te0/1/${n - 1}`),
    mgmt: p('GigabitEthernet0', 'Gi0'),
    loopback: (n) => p(`Loopback${n}`, `Lo${n}`),
    svi: (v) => p(`BDI${v}`),
    sub,
    lag: (n) => p(`Port-channel${n}`, `Po${n}`),
  },
  nxos: {
    port: (m, n) => p(`Ethernet${m}/${n}`, `Eth${m}/${n}`),
    uplink: (n) => p(`Ethernet1/${48 + n}`, `Eth1/${48 + n}`),
    mgmt: p('mgmt0'),
    loopback: (n) => p(`loopback${n}`, `Lo${n}`),
    svi: (v) => p(`Vlan${v}`, `Vl${v}`),
    sub,
    lag: (n) => p(`port-channel${n}`, `Po${n}`),
  },
  eos: {
    port: (m, n) => p(`Ethernet${(m - 1) * 48 + n}`, `Et${(m - 1) * 48 + n}`),
    uplink: (n) => p(`Ethernet${240 + n}`, `Et${240 + n}`),
    mgmt: p('Management1', 'Ma1'),
    loopback: (n) => p(`Loopback${n}`, `Lo${n}`),
    svi: (v) => p(`Vlan${v}`, `Vl${v}`),
    sub,
    lag: (n) => p(`Port-Channel${n}`, `Po${n}`),
  },
  junos: {
    port: (m, n) => p(`ge-${m - 1}/0/${n - 1}`),
    uplink: (n) => p(`xe-0/2/${n - 1}`),
    mgmt: p('me0'),
    loopback: (n) => p(`lo0.${n}`),
    svi: (v) => p(`irb.${v}`),
    sub,
    lag: (n) => p(`ae${n - 1}`),
  },
  junosRouter: {
    port: (m, n) => p(`xe-0/${m - 1}/${n - 1}`),
    uplink: (n) => p(`et-0/0/${n - 1}`),
    mgmt: p('fxp0'),
    loopback: (n) => p(`lo0.${n}`),
    svi: (v) => p(`irb.${v}`),
    sub,
    lag: (n) => p(`ae${n - 1}`),
  },
  aoscx: {
    port: (m, n) => p(`${m}/1/${n}`),
    uplink: (n) => p(`1/1/${48 + n}`),
    mgmt: p('mgmt'),
    loopback: (n) => p(`loopback${n}`),
    svi: (v) => p(`vlan${v}`),
    sub,
    lag: (n) => p(`lag${n}`),
  },
  fortios: {
    port: (_m, n) => p(`port${n}`),
    uplink: (n) => p(`x${n}`),
    mgmt: p('mgmt'),
    loopback: (n) => p(`loopback${n}`),
    svi: (v) => p(`vlan${v}`),
    sub: (parent, v) => p(`${parent.original}_v${v}`),
    lag: (n) => p(`agg${n}`),
  },
  panos: {
    port: (_m, n) => p(`ethernet1/${n}`),
    uplink: (n) => p(`ethernet1/${16 + n}`),
    mgmt: p('mgmt'),
    loopback: (n) => p(`loopback.${n}`),
    svi: (v) => p(`vlan.${v}`),
    sub,
    lag: (n) => p(`ae${n}`),
  },
  ap: {
    port: (_m, n) => p(`GigabitEthernet${n - 1}`, `Gi${n - 1}`),
    uplink: (n) => p(`GigabitEthernet${n - 1}`, `Gi${n - 1}`),
    mgmt: p('GigabitEthernet0', 'Gi0'),
    loopback: (n) => p(`Dot11Radio${n - 1}`, `Do${n - 1}`),
    svi: (v) => p(`BVI${v}`),
    sub,
    lag: (n) => p(`Port-channel${n}`, `Po${n}`),
  },
} as const satisfies Record<string, Naming>

export type NamingStyle = keyof typeof NAMING
