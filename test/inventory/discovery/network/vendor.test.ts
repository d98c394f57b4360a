/** Vendor, family, platform, model and version from sysObjectID and the sysDescr texts devices really send. */
import t from 'tap'
import { enterpriseOf, identify } from '../../../../src/inventory/discovery/network/vendor.js'

const CISCO = '1.3.6.1.4.1.9.1.1208'
const CASES: Array<[string, string, string, Record<string, string | null>]> = [
  [
    'Cisco IOS (Catalyst 2960 stack)',
    CISCO,
    'Cisco IOS Software, C2960 Software (C2960-LANBASEK9-M), Version 12.2(55)SE7, RELEASE SOFTWARE (fc1)\r\nTechnical Support: http://www.cisco.com/techsupport\r\nCopyright (c) 1986-2013 by Cisco Systems, Inc.\r\nCompiled Mon 28-Jan-13 10:10 by prod_rel_team',
    { vendor: 'cisco', family: 'ios', platform: 'c2960', model: null, version: '12.2(55)SE7' },
  ],
  [
    'Cisco IOS-XE (Catalyst 9300)',
    '1.3.6.1.4.1.9.1.2440',
    'Cisco IOS Software [Amsterdam], Catalyst L3 Switch Software (CAT9K_IOSXE), Version 17.3.4, RELEASE SOFTWARE (fc3)\r\nTechnical Support: http://www.cisco.com/techsupport\r\nCopyright (c) 1986-2021 by Cisco Systems, Inc.\r\nCompiled Tue 29-Jun-21 01:46 by mcpre',
    { vendor: 'cisco', family: 'ios-xe', platform: 'cat9k', model: 'C9300-48P', version: '17.3.4' },
  ],
  [
    'Cisco IOS-XE (ISR router image: the platform from the product identifier)',
    '1.3.6.1.4.1.9.1.2068',
    'Cisco IOS Software [Bengaluru], ISR Software (X86_64_LINUX_IOSD-UNIVERSALK9-M), Version 17.6.5, RELEASE SOFTWARE (fc2)\r\nTechnical Support: http://www.cisco.com/techsupport\r\nCopyright (c) 1986-2023 by Cisco Systems, Inc.\r\nCompiled Wed 25-Jan-23 16:16 by mcpre',
    { vendor: 'cisco', family: 'ios-xe', platform: 'isr4300', model: 'ISR4331', version: '17.6.5' },
  ],
  [
    'Cisco NX-OS (Nexus 9000)',
    '1.3.6.1.4.1.9.12.3.1.3.1812',
    'Cisco NX-OS(tm) n9000, Software (n9000-dk9), Version 9.3(8), RELEASE SOFTWARE Copyright (c) 2002-2021 by Cisco Systems, Inc. Compiled 3/5/2021 23:00:00',
    { vendor: 'cisco', family: 'nx-os', platform: 'n9000', model: 'N9K-C93180YC-EX', version: '9.3(8)' },
  ],
  [
    'Cisco NX-OS (Nexus 5000)',
    '1.3.6.1.4.1.9.12.3.1.3.1084',
    'Cisco NX-OS(tm) n5000, Software (n5000-uk9), Version 7.3(8)N1(1), RELEASE SOFTWARE Copyright (c) 2002-2020 by Cisco Systems, Inc. Device Manager Version 7.3(8)N1(1),  Compiled 2/18/2020 3:00:00',
    { vendor: 'cisco', family: 'nx-os', platform: 'n5000', model: 'N5K-C5548UP', version: '7.3(8)N1(1)' },
  ],
  ['Cisco IOS XR', '1.3.6.1.4.1.9.1.1017', 'Cisco IOS XR Software (Cisco ASR9K Series),  Version 6.4.2[Default]\r\nCopyright (c) 2018 by Cisco Systems, Inc.', { vendor: 'cisco', family: 'ios-xr', platform: 'asr9k', version: '6.4.2' }],
  ['Cisco ASA', '1.3.6.1.4.1.9.1.2313', 'Cisco Adaptive Security Appliance Version 9.8(4)10', { vendor: 'cisco', family: 'asa', version: '9.8(4)10' }],
  [
    'Juniper Junos (EX switch)',
    '1.3.6.1.4.1.2636.1.1.1.2.63',
    'Juniper Networks, Inc. ex4300-48t Ethernet Switch, kernel JUNOS 18.4R2-S3.2, Build date: 2020-01-16 05:11:24 UTC Copyright (c) 1996-2020 Juniper Networks, Inc.',
    { vendor: 'juniper', family: 'junos', platform: 'ex', model: 'EX4300-48T', version: '18.4R2-S3.2' },
  ],
  [
    'Juniper Junos (MX router)',
    '1.3.6.1.4.1.2636.1.1.1.2.25',
    'Juniper Networks, Inc. mx480 internet router, kernel JUNOS 17.3R3-S3.3, Build date: 2019-02-15 03:18:10 UTC Copyright (c) 1996-2019 Juniper Networks, Inc.',
    { vendor: 'juniper', family: 'junos', platform: 'mx', model: 'MX480', version: '17.3R3-S3.3' },
  ],
  [
    'Arista EOS',
    '1.3.6.1.4.1.30065.1.3011.7050.3741.3.48.1654.8',
    'Arista Networks EOS version 4.24.2.4F running on an Arista Networks DCS-7050SX3-48YC8',
    { vendor: 'arista', family: 'eos', platform: '7050sx3', model: 'DCS-7050SX3-48YC8', version: '4.24.2.4F' },
  ],
  [
    'Linux with FRR (net-snmp agent)',
    '1.3.6.1.4.1.8072.3.2.10',
    'Linux r1 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64',
    { vendor: 'linux', family: 'linux', platform: 'x86_64', model: null, version: '6.1.0-18-amd64' },
  ],
  [
    'Huawei VRP',
    '1.3.6.1.4.1.2011.2.23.419',
    'Huawei Versatile Routing Platform Software\r\nVRP (R) software, Version 5.170 (S5720 V200R011C10SPC500)\r\nCopyright (C) 2000-2018 HUAWEI TECH Co., Ltd.\r\nHUAWEI S5720-28X-PWR-SI-AC\r\n',
    { vendor: 'huawei', family: 'vrp', platform: 's5720', model: 'S5720-28X-PWR-SI-AC', version: 'V200R011C10SPC500' },
  ],
  ['Aruba AOS-CX', '1.3.6.1.4.1.47196.4.1.1.1.307', 'Aruba JL658A 6300M 24SFP+ 4SFP56 Swch FL.10.08.1010', { vendor: 'aruba', family: 'aos-cx', platform: '6300m', model: 'JL658A', version: 'FL.10.08.1010' }],
  ['MikroTik RouterOS', '1.3.6.1.4.1.14988.1', 'RouterOS RB4011iGS+', { vendor: 'mikrotik', family: 'routeros', model: 'RB4011iGS+' }],
]

t.test('sysDescr and sysObjectID of the main vendors', async (t) => {
  for (const [name, objectId, descr, want] of CASES) t.match(identify(objectId, descr), want, name)
})

t.test('the enterprise number names the vendor; a field nothing carries stays null', async (t) => {
  t.equal(enterpriseOf('1.3.6.1.4.1.2636.1.1.1.2.25'), 2636)
  t.equal(enterpriseOf('.1.3.6.1.4.1.9.1.1'), 9)
  t.equal(enterpriseOf('1.3.6.1.2.1.1'), null)
  t.equal(enterpriseOf(null), null)
  t.same(identify('1.3.6.1.4.1.9.1.1', 'some text a parser does not know'), { vendor: 'cisco', family: null, platform: null, model: null, version: null }, 'a Cisco product the table does not hold')
  t.same(identify('1.3.6.1.4.1.99999.1', 'Appliance 3000'), { vendor: null, family: null, platform: null, model: null, version: null })
  t.same(identify(null, null), { vendor: null, family: null, platform: null, model: null, version: null })
  t.match(identify('1.3.6.1.4.1.99999.1', CASES[0]![2]), { vendor: 'cisco', family: 'ios' }, 'an unknown enterprise falls back to the text')
})

t.test('the product identifier alone: vendor, family, platform and model from the vendors\' MIBs', async (t) => {
  const only = (oid: string) => identify(oid, 'a text no parser knows')
  t.same(only('1.3.6.1.4.1.9.1.2440'), { vendor: 'cisco', family: 'ios-xe', platform: 'cat9k', model: 'C9300-48P', version: null }, 'CISCO-PRODUCTS-MIB ciscoCat930048P')
  t.same(only('1.3.6.1.4.1.9.1.1181'), { vendor: 'cisco', family: 'ios', platform: 'c2960x', model: 'WS-C2960X-48FPD-L', version: null }, 'cat2960xs48fpdL')
  t.same(only('1.3.6.1.4.1.9.1.1861'), { vendor: 'cisco', family: 'ios-xe', platform: 'asr1000', model: 'ASR1001-X', version: null }, 'ciscoASR1001X')
  t.same(only('1.3.6.1.4.1.9.1.2494'), { vendor: 'cisco', family: 'ios-xe', platform: 'cat9k', model: null, version: null }, 'a Catalyst 9300 stack names no one model')
  t.same(only('1.3.6.1.4.1.9.12.3.1.3.1955'), { vendor: 'cisco', family: 'nx-os', platform: 'n9000', model: 'N9K-C9336C-FX2', version: null }, 'CISCO-ENTITY-VENDORTYPE-OID-MIB cevChassisN9KC9336CFX2')
  t.same(only('1.3.6.1.4.1.30065.1.3011.7280.3735.3.48.1654.8'), { vendor: 'arista', family: 'eos', platform: '7280sr3', model: 'DCS-7280SR3-48YC8', version: null }, 'ARISTA-PRODUCTS-MIB aristaDCS7280SR348YC8')
  t.same(only('1.3.6.1.4.1.30065.1.3011.9999.1'), { vendor: 'arista', family: 'eos', platform: null, model: null, version: null }, 'an Arista product the table does not hold is still EOS')
  t.same(only('1.3.6.1.4.1.2636.1.1.1.2.29'), { vendor: 'juniper', family: 'junos', platform: 'mx', model: 'MX240', version: null }, 'JUNIPER-CHASSIS-DEFINES-MIB jnxProductNameMX240')
  t.same(only('1.3.6.1.4.1.2636.1.1.1.4.82.5'), { vendor: 'juniper', family: 'junos', platform: 'qfx', model: 'QFX5100-48S-6Q', version: null }, 'jnxProductQFX510048S6Q')
  t.same(only('1.3.6.1.4.1.8072.3.2.10'), { vendor: 'linux', family: 'linux', platform: null, model: null, version: null }, 'NET-SNMP-TC linux')
  t.same(only('.1.3.6.1.4.1.8072.3.2.8'), { vendor: 'net-snmp', family: 'freebsd', platform: null, model: null, version: null }, 'NET-SNMP-TC freebsd')
  t.same(only('1.3.6.1.4.1.9.1.24400'), { vendor: 'cisco', family: null, platform: null, model: null, version: null }, 'a longer number is not a prefix match of another')
})

t.test('the chassis model of ENTITY-MIB wins over the text and the table; the text\'s family over the table\'s', async (t) => {
  t.match(identify('1.3.6.1.4.1.9.1.2494', CASES[1]![2], 'C9300-48UXM'), { family: 'ios-xe', platform: 'cat9k', model: 'C9300-48UXM' })
  t.match(identify('1.3.6.1.4.1.2636.1.1.1.2.63', CASES[7]![2], 'EX4300-48T'), { model: 'EX4300-48T', platform: 'ex' })
  // a 3850 running classic IOS would say so in its text
  t.match(identify('1.3.6.1.4.1.9.1.1641', 'Cisco IOS Software, IOS Software (CAT3K_CAA-UNIVERSALK9-M), Version 15.0(1)EZ1'), { family: 'ios', model: 'WS-C3850-48P' })
})
