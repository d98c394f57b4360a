/** Security: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const SECURITY_TABLES: readonly TableDef[] = [
  uncollected({ path: 'security/aaa/accounting', title: 'AAA accounting', what: 'AAA accounting.', columns: [['primaryMethod', 'string', 'The primaryMethod column of this table in the API family.']] }),
  uncollected({ path: 'security/aaa/authentication', title: 'AAA authentication', what: 'AAA authentication.', columns: [['primaryMethod', 'string', 'The primaryMethod column of this table in the API family.']] }),
  uncollected({ path: 'security/aaa/authorization', title: 'AAA authorization', what: 'AAA authorization.', columns: [['primaryMethod', 'string', 'The primaryMethod column of this table in the API family.']] }),
  uncollected({ path: 'security/aaa/lines', title: 'AAA lines', what: 'AAA lines.', columns: [['authenServiceList', 'string', 'The authenServiceList column of this table in the API family.']] }),
  uncollected({ path: 'security/aaa/password-strength', title: 'AAA password strength', what: 'AAA password strength.', columns: [] }),
  uncollected({ path: 'security/aaa/servers', title: 'AAA servers', what: 'AAA servers.', columns: [] }),
  uncollected({ path: 'security/aaa/users', title: 'AAA users', what: 'AAA users.', columns: [] }),
  uncollected({ path: 'security/acl', title: 'ACL', what: 'ACL.', columns: [] }),
  uncollected({ path: 'security/acl/global-policies', title: 'ACL global policies', what: 'ACL global policies.', columns: [] }),
  uncollected({ path: 'security/acl/interfaces', title: 'ACL interface', what: 'ACL interface.', columns: [] }),
  uncollected({ path: 'security/dhcp/bindings', title: 'DHCP snooping bindings', what: 'DHCP snooping bindings.', columns: [['leaseTimeout', 'integer', 'The leaseTimeout column of this table in the API family.']] }),
  uncollected({ path: 'security/dhcp/snooping', title: 'DHCP snooping', what: 'DHCP snooping.', columns: [['enabled', 'boolean', 'Whether the feature is enabled.'], ['enabledVlanList', 'string', 'The enabledVlanList column of this table in the API family.'], ['packetsDropped', 'integer', 'The packetsDropped column of this table in the API family.'], ['packetsTotal', 'integer', 'The packetsTotal column of this table in the API family.'], ['trustedPortList', 'string', 'The trustedPortList column of this table in the API family.']] }),
  uncollected({ path: 'security/dmvpn', title: 'DMVPN', what: 'DMVPN.', columns: [['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'security/enabled-telnet', title: 'Telnet access', what: 'Telnet access.', columns: [] }),
  uncollected({ path: 'security/ipsec/gateways', title: 'IPSEC gateways', what: 'IPSEC gateways.', columns: [['authentication', 'string', 'The authentication column of this table in the API family.'], ['encryption', 'string', 'The encryption column of this table in the API family.'], ['status', 'string', 'Status as the device reports it.']] }),
  uncollected({ path: 'security/ipsec/tunnels', title: 'IPSEC tunnels', what: 'IPSEC tunnels.', columns: [['authentication', 'string', 'The authentication column of this table in the API family.'], ['encryption', 'string', 'The encryption column of this table in the API family.'], ['status', 'string', 'Status as the device reports it.']] }),
  uncollected({ path: 'security/secure-ports/devices', title: 'Secure ports devices', what: 'Secure ports devices.', columns: [] }),
  uncollected({ path: 'security/secure-ports/interfaces', title: 'Secure ports interfaces', what: 'Secure ports interfaces.', columns: [['edge', 'string', 'The edge column of this table in the API family.'], ['method', 'string', 'The method column of this table in the API family.'], ['switchportMode', 'string', 'The switchportMode column of this table in the API family.']] }),
  uncollected({ path: 'security/secure-ports/users', title: 'Secure ports users', what: 'Secure ports users.', columns: [] }),
  uncollected({ path: 'security/zone-firewall/interfaces', title: 'Zone firewall interfaces', what: 'Zone firewall interfaces.', columns: [] }),
  uncollected({ path: 'security/zone-firewall/policies', title: 'Zone firewall policies', what: 'Zone firewall policies.', columns: [] }),
]
