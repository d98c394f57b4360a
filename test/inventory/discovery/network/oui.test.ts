/** The vendor of a MAC address from the IEEE registry the oui-data package ships. */
import t from 'tap'
import { ouiVendor } from '../../../../src/inventory/discovery/network/oui.js'

t.test('registered prefixes in every notation', async (t) => {
  t.equal(ouiVendor('00:00:0c:12:34:56'), 'Cisco Systems, Inc')
  t.equal(ouiVendor('444C.A810.2000'), 'Arista Networks')
  t.equal(ouiVendor('2c-6b-f5-30-40-00'), 'Juniper Networks')
  t.equal(ouiVendor('00:50:56:aa:00:50'), 'VMware, Inc.')
})

t.test('the longest assignment wins: MA-M and MA-S blocks inside an OUI the IEEE holds', async (t) => {
  t.equal(ouiVendor('10:06:48:0a:bc:de'), 'FLEXTRONICS TECHNOLOGIES (INDIA) PVT LTD', 'MA-M 10:06:48:0')
  t.equal(ouiVendor('10:06:48:1a:bc:de'), 'KYTRONICS', 'MA-M 10:06:48:1')
  t.equal(ouiVendor('00:1b:c5:00:00:12'), 'Converging Systems Inc.', 'MA-S 00:1b:c5:000')
  t.equal(ouiVendor('00:1b:c5:00:10:12'), 'OpenRB.com, Direct SIA', 'MA-S 00:1b:c5:001')
})

t.test('no vendor for what no organisation registered', async (t) => {
  t.equal(ouiVendor(null), null)
  t.equal(ouiVendor('02:42:ac:11:00:02'), null, 'locally administered (a container\'s)')
  t.equal(ouiVendor('01:00:5e:00:00:01'), null, 'a group (multicast) address')
  t.equal(ouiVendor('00:00:0c'), null, 'not a whole address')
  t.equal(ouiVendor('not a mac address'), null)
})
