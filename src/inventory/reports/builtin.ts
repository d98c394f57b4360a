/**
 * Built-in intent rules: what a network engineer checks first on devices, interfaces, BGP
 * sessions, VLANs and routes. Each check is a table filter; the highest matching severity wins.
 */
import type { ReportGroup, ReportRule } from './types.js'

export const BUILTIN_GROUPS: readonly ReportGroup[] = [
  { id: 'device-health', name: 'Device health', description: 'Resources, uptime and management of devices.' },
  { id: 'interfaces', name: 'Interfaces', description: 'Physical and line state, duplex, speed and MTU of interfaces.' },
  { id: 'routing', name: 'Routing', description: 'BGP sessions and routing tables.' },
  { id: 'switching', name: 'Switching', description: 'VLANs and layer 2.' },
  { id: 'custom', name: 'Custom', description: 'Rules created by users.' },
]

type Builtin = Omit<ReportRule, 'custom' | 'defaultColor' | 'descriptions'> & Partial<Pick<ReportRule, 'defaultColor'>> & { general: string }

const RULES: readonly Builtin[] = [
  {
    id: 'device-memory-utilization', name: 'Memory utilisation', tablePath: 'inventory/devices', column: 'memoryUtilization', groups: ['device-health'],
    general: 'Memory in use: above 90 % red, above 75 % amber.',
    checks: { '30': { memoryUtilization: ['gt', 90] }, '20': { memoryUtilization: ['gt', 75] }, '0': { memoryUtilization: ['lte', 75] } },
  },
  {
    id: 'device-uptime', name: 'Recent reload', tablePath: 'inventory/devices', column: 'uptime', groups: ['device-health'],
    general: 'A device that reloaded within the last day is amber.',
    checks: { '20': { uptime: ['lt', 86400] }, '0': { uptime: ['gte', 86400] } },
  },
  {
    id: 'device-login-type', name: 'Insecure management protocol', tablePath: 'inventory/devices', column: 'loginType', groups: ['device-health'],
    general: 'Devices managed over telnet are red.',
    checks: { '30': { loginType: ['eq', 'telnet'] }, '0': { loginType: ['neq', 'telnet'] } },
  },
  {
    id: 'device-config-register', name: 'Configuration register', tablePath: 'inventory/devices', column: 'configReg', groups: ['device-health'],
    general: 'A Cisco configuration register other than 0x2102 (e.g. password recovery) is amber.',
    checks: { '20': { and: [{ configReg: ['empty', false] }, { configReg: ['nieq', '0x2102'] }] }, '0': { configReg: ['ieq', '0x2102'] } },
  },
  {
    id: 'interface-l1-state', name: 'Interface physical state', tablePath: 'inventory/interfaces', column: 'l1', groups: ['interfaces'],
    general: 'err-disabled interfaces are red, administratively down ones blue.',
    checks: { '30': { l1: ['eq', 'err-disabled'] }, '10': { l1: ['eq', 'admin-down'] }, '0': { l1: ['eq', 'up'] } },
  },
  {
    id: 'interface-err-disabled', name: 'Err-disabled cause', tablePath: 'inventory/interfaces', column: 'errDisabled', groups: ['interfaces'],
    general: 'Any err-disable cause (BPDU guard, port security, ...) is red.',
    checks: { '30': { errDisabled: ['empty', false] } },
  },
  {
    id: 'interface-duplex', name: 'Half duplex', tablePath: 'inventory/interfaces', column: 'duplex', groups: ['interfaces'],
    general: 'Half duplex is amber: usually a negotiation mismatch.',
    checks: { '20': { duplex: ['eq', 'half'] }, '0': { duplex: ['eq', 'full'] } },
  },
  {
    id: 'interface-line-down', name: 'Line protocol down', tablePath: 'inventory/interfaces', column: 'l2', groups: ['interfaces'],
    general: 'Physically up but line protocol down is red.',
    checks: { '30': { and: [{ l1: ['eq', 'up'] }, { l2: ['eq', 'down'] }] }, '0': { l2: ['eq', 'up'] } },
  },
  {
    id: 'interface-mtu', name: 'Non-standard MTU', tablePath: 'inventory/interfaces', column: 'mtu', groups: ['interfaces'],
    general: 'An MTU below 1500 is amber, jumbo frames are blue.',
    checks: { '20': { mtu: ['lt', 1500] }, '10': { mtu: ['gt', 1500] }, '0': { mtu: ['eq', 1500] } },
  },
  {
    id: 'interface-low-speed', name: 'Slow active port', tablePath: 'inventory/interfaces', column: 'speedValue', groups: ['interfaces'],
    general: 'An up, non-virtual interface slower than 1 Gbps is amber.',
    checks: {
      '20': { and: [{ speedValue: ['lt', 1_000_000_000] }, { l1: ['eq', 'up'] }, { media: ['neq', 'virtual'] }] },
      '0': { speedValue: ['gte', 1_000_000_000] },
    },
  },
  {
    id: 'bgp-session-state', name: 'BGP session state', tablePath: 'routing/protocols/bgp/neighbors', column: 'state', groups: ['routing'],
    general: 'A BGP session that is not established is red.',
    checks: { '30': { state: ['neq', 'established'] }, '0': { state: ['eq', 'established'] } },
  },
  {
    id: 'bgp-received-prefixes', name: 'BGP session without prefixes', tablePath: 'routing/protocols/bgp/neighbors', column: 'totalReceivedPrefixes', groups: ['routing'],
    general: 'An established session that receives no prefix is amber.',
    checks: { '20': { and: [{ state: ['eq', 'established'] }, { totalReceivedPrefixes: ['eq', 0] }] }, '0': { totalReceivedPrefixes: ['gt', 0] } },
  },
  {
    id: 'bgp-recent-change', name: 'BGP session recently changed', tablePath: 'routing/protocols/bgp/neighbors', column: 'currStateTime', groups: ['routing'],
    general: 'A session whose state changed within the last hour is amber (flapping).',
    checks: { '20': { currStateTime: ['lt', 3600] }, '0': { currStateTime: ['gte', 3600] } },
  },
  {
    id: 'vlan-status', name: 'VLAN not active', tablePath: 'vlan/device', column: 'status', groups: ['switching'],
    general: 'Suspended VLANs are red, shut down ones amber.',
    checks: { '30': { status: ['eq', 'suspend'] }, '20': { status: ['eq', 'act/lshut'] }, '0': { status: ['eq', 'active'] } },
  },
  {
    id: 'vlan-default-name', name: 'VLAN without a name', tablePath: 'vlan/device', column: 'vlanName', groups: ['switching'],
    general: 'A VLAN left with its default name (VLAN0123) or none is blue.',
    checks: { '10': { or: [{ vlanName: ['ireg', '^vlan[0-9]+$'] }, { vlanName: ['empty', true] }] }, '0': { vlanName: ['nireg', '^vlan[0-9]+$'] } },
  },
  {
    id: 'route-single-path', name: 'Dynamic route with one next hop', tablePath: 'networks/routes', column: 'nhCount', groups: ['routing'],
    general: 'A route learnt by a routing protocol through a single next hop has no redundancy (blue).',
    checks: { '10': { and: [{ nhCount: ['eq', 1] }, { protocol: ['eq', 'ospf'] }] }, '0': { nhCount: ['gt', 1] } },
  },
  {
    id: 'route-default', name: 'Default route', tablePath: 'networks/routes', column: 'network', groups: ['routing'],
    general: 'Default routes are blue, to find where traffic leaves the network.',
    checks: { '10': { network: ['eq', '0.0.0.0/0'] } },
  },
]

export const BUILTIN_RULES: readonly ReportRule[] = RULES.map(({ general, ...rule }) => ({
  ...rule,
  custom: false,
  defaultColor: rule.defaultColor ?? null,
  descriptions: { general },
}))
