/** The lab: real routers (FRR, lldpd, snmpd) and switches (a Linux bridge, lldpd, snmpd) in network namespaces, its topology and its ground truth. */
import topology from './topology.json' with { type: 'json' }
import { checkTopology, type Topology } from './topology.js'

export { Lab, type LabOptions } from './lab.js'
export { labMissing, LAB_PACKAGES } from './requirements.js'
export { teardown, staleLabs } from './netns.js'
export { sshMissing, sshUser } from './ssh.js'
export { truthOf, type Truth } from './truth.js'
export { bgpSessions, checkTopology, hostAddresses, managementAddresses, switchAddresses, switchPorts, type LabLink, type LabRouter, type LabSwitch, type Topology } from './topology.js'

/** The lab of the repository (src/lab/topology.json): eight routers in three autonomous systems, three end hosts. */
export function defaultTopology(): Topology {
  return checkTopology(structuredClone(topology) as Topology)
}
