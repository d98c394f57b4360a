/** Sdn: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const SDN_TABLES: readonly TableDef[] = [
  uncollected({ path: 'aci/dtep', title: 'ACI DTEP', what: 'ACI DTEP.', columns: [] }),
  uncollected({ path: 'aci/endpoints', title: 'ACI endpoints', what: 'ACI endpoints.', columns: [] }),
  uncollected({ path: 'aci/vlan', title: 'ACI vlan', what: 'ACI vlan.', columns: [] }),
  uncollected({ path: 'aci/vtep', title: 'ACI VRF', what: 'ACI VRF.', columns: [] }),
  uncollected({ path: 'apic/applications', title: 'APIC applications', what: 'APIC applications.', columns: [] }),
  uncollected({ path: 'apic/bridge-domains', title: 'APIC bridge domains', what: 'APIC bridge domains.', columns: [] }),
  uncollected({ path: 'apic/contexts', title: 'APIC contexts', what: 'APIC contexts.', columns: [] }),
  uncollected({ path: 'apic/contracts', title: 'APIC contracts', what: 'APIC contracts.', columns: [] }),
  uncollected({ path: 'apic/controllers', title: 'APIC controllers', what: 'APIC controllers.', columns: [] }),
  uncollected({ path: 'apic/endpoint-groups', title: 'APIC endpoint groups', what: 'APIC endpoint groups.', columns: [] }),
  uncollected({ path: 'apic/endpoint-groups/contracts', title: 'APIC endpoint groups contracts', what: 'APIC endpoint groups contracts.', columns: [] }),
  uncollected({ path: 'vxlan/interfaces', title: 'VXLAN interfaces', what: 'VXLAN interfaces.', columns: [] }),
  uncollected({ path: 'vxlan/peers', title: 'VXLAN peers', what: 'VXLAN peers.', columns: [] }),
  uncollected({ path: 'vxlan/vni', title: 'VXLAN VNI', what: 'VXLAN VNI.', columns: [['vniState', 'string', 'The vniState column of this table in the API family.']] }),
  uncollected({ path: 'vxlan/vtep', title: 'VXLAN VTEP', what: 'VXLAN VTEP.', columns: [] }),
]
