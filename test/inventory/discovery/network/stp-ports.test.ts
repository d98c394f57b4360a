/**
 * Spanning-tree ports from dot1dStpPortTable as an agent words them (32-bit path costs beyond
 * the 16-bit column, port ids, an agent without RSTP-MIB), and the role rules on the cases the
 * recorded switches do not show: a port whose spanning tree is turned off, a port in transition.
 */
import t from 'tap'
import { Recorded } from './varbinds.js'
import { collectStpPorts, portId, STP_PORT } from '../../../../src/inventory/discovery/network/mibs/stp.js'
import { portRole } from '../../../../src/inventory/discovery/network/rows/stp.js'
import type { StpPort } from '../../../../src/inventory/discovery/network/model.js'

const INT = 2
const OCTETS = 4

const bridge = (priority: number, mac: string) => Buffer.concat([Buffer.from([priority >> 8, priority & 0xff]), Buffer.from(mac.replace(/:/g, ''), 'hex')])

t.test('dot1dStpPortTable: the 32-bit cost when the agent has it, port ids by IEEE 802.1t, no RSTP-MIB: edge and p2p unknown', async (t) => {
  const agent = new Recorded([
    [`${STP_PORT.priority}.7`, INT, 32],
    [`${STP_PORT.state}.7`, INT, 4],
    [`${STP_PORT.enable}.7`, INT, 1],
    [`${STP_PORT.pathCost}.7`, INT, 65535],
    [`${STP_PORT.pathCost32}.7`, INT, 200000],
    [`${STP_PORT.designatedRoot}.7`, OCTETS, bridge(4096, '00:1e:7a:00:04:00')],
    [`${STP_PORT.designatedCost}.7`, INT, 20000],
    [`${STP_PORT.designatedBridge}.7`, OCTETS, bridge(32768, '00:1b:d4:a1:b2:00')],
    [`${STP_PORT.designatedPort}.7`, OCTETS, Buffer.from([0x20, 0x07])],
    [`${STP_PORT.state}.3`, INT, 9],
    [`${STP_PORT.pathCost}.3`, INT, 19],
  ])
  t.same(await collectStpPorts(agent), [
    { port: 3, priority: null, state: null, enabled: null, pathCost: 19, designatedRoot: null, designatedCost: null, designatedBridge: null, designatedPort: null, edge: null, p2p: null },
    {
      port: 7, priority: 32, state: 'learning', enabled: true, pathCost: 200000, designatedRoot: '4096.001e.7a00.0400', designatedCost: 20000,
      designatedBridge: '32768.001b.d4a1.b200', designatedPort: '32.7', edge: null, p2p: null,
    },
  ])
  t.equal(portId(Buffer.from([0x80, 0x01])), '128.1', 'the older one-octet priority 128 reads the same')
  t.equal(portId(Buffer.from([0xf0, 0x3f])), '240.63')
  t.equal(portId(Buffer.from([1])), null, 'a port id is two octets')
})

t.test('port roles: disabled, root, designated, backup, alternate, and none for a port in transition', async (t) => {
  const own = '32769.001b.d4a1.b200'
  const other = '24577.001e.7a00.0400'
  const port = (p: Partial<StpPort>): StpPort => ({
    port: 5, priority: 128, state: 'forwarding', enabled: true, pathCost: 4, designatedRoot: other, designatedCost: 0, designatedBridge: other, designatedPort: '128.1', edge: null, p2p: null, ...p,
  })
  t.equal(portRole(port({ enabled: false, state: 'forwarding' }), 5, own), 'disabled', 'spanning tree turned off on the port')
  t.equal(portRole(port({ state: 'disabled' }), 1, own), 'disabled', 'a port that is down')
  t.equal(portRole(port({}), 5, own), 'root')
  t.equal(portRole(port({ designatedBridge: '32768.001b.d4a1.b200', designatedPort: '128.5' }), 1, own), 'designated', 'the bridge itself, whatever its priority extension')
  t.equal(portRole(port({ designatedBridge: own, designatedPort: '128.5', state: 'learning' }), 1, own), 'designated', 'a designated port on its way to forwarding')
  t.equal(portRole(port({ designatedBridge: own, designatedPort: '128.4', state: 'blocking' }), 1, own), 'backup')
  t.equal(portRole(port({ state: 'blocking' }), 1, own), 'alternate')
  t.equal(portRole(port({ state: 'listening' }), 1, own), null, 'toward another bridge, not the root port, not blocking')
  t.equal(portRole(port({ state: 'blocking' }), 0, own), 'alternate', 'the root bridge has no root port (0)')
})
