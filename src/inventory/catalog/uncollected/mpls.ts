/** MPLS: tables of the API family whose technology netinv does not collect (see table.ts). */
import type { TableDef } from '../types.js'
import { uncollected } from './table.js'

export const MPLS_TABLES: readonly TableDef[] = [
  uncollected({ path: 'mpls/forwarding', title: 'RSVP forwarding', what: 'RSVP forwarding.', columns: [] }),
  uncollected({ path: 'mpls/l2-vpn/curcit-cross-connect', title: 'L2vpn circuit cross connect', what: 'L2vpn circuit cross connect.', columns: [['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'mpls/l2-vpn/point-to-multipoint', title: 'L2vpn point to multipoint', what: 'L2vpn point to multipoint.', columns: [['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'mpls/l2-vpn/point-to-point-vpws', title: 'L2vpn point to point vpws', what: 'L2vpn point to point vpws.', columns: [['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'mpls/l2-vpn/pseudowires', title: 'L2vpn pseudowires', what: 'L2vpn pseudowires.', columns: [['state', 'string', 'State as the device reports it.']] }),
  uncollected({ path: 'mpls/l3-vpn/pe-routers', title: 'L3vpn PE routers', what: 'L3vpn PE routers.', columns: [] }),
  uncollected({ path: 'mpls/l3-vpn/pe-routes', title: 'L3vpn PE routes', what: 'L3vpn PE routes.', columns: [] }),
  uncollected({ path: 'mpls/l3-vpn/pe-vrfs', title: 'L3vpn PE vrfs', what: 'L3vpn PE vrfs.', columns: [] }),
  uncollected({ path: 'mpls/l3-vpn/vrf-targets', title: 'L3vpn VRF targets', what: 'L3vpn VRF targets.', columns: [], perDevice: false }),
  uncollected({ path: 'mpls/ldp/interfaces', title: 'LDP interfaces', what: 'LDP interfaces.', columns: [['neiCount', 'integer', 'Number of neighbours on the interface.']] }),
  uncollected({ path: 'mpls/ldp/neighbors', title: 'LDP neighbors', what: 'LDP neighbors.', columns: [['currStateTime', 'integer', 'Seconds in the current state.']] }),
  uncollected({ path: 'mpls/rsvp/interfaces', title: 'RSVP interfaces', what: 'RSVP interfaces.', columns: [] }),
  uncollected({ path: 'mpls/rsvp/neighbors', title: 'RSVP neighbors', what: 'RSVP neighbors.', columns: [] }),
]
