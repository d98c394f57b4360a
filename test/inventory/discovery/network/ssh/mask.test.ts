/**
 * Secrets are masked before a configuration is stored, on configuration lines as IOS, NX-OS,
 * EOS, Junos and FRR print them; the words around a secret are kept, lines that are not secrets
 * are untouched, and lines that change without a change of configuration are left out of the
 * text and its fingerprint.
 */
import t from 'tap'
import { configurationHash, maskLine, MASK, savedStatus, storedConfiguration } from '../../../../../src/inventory/discovery/network/ssh/mask.js'

const MASKED: ReadonlyArray<readonly [string, string]> = [
  // Cisco IOS / IOS-XE
  ['enable secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM', `enable secret 9 ${MASK}`],
  ['enable password 7 0822455D0A16', `enable password 7 ${MASK}`],
  ['username admin privilege 15 secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0', `username admin privilege 15 secret 5 ${MASK}`],
  ['username ops password 0 Plain-Text-1', `username ops password 0 ${MASK}`],
  ['snmp-server community n3tw0rkRO RO 10', `snmp-server community ${MASK} RO 10`],
  ['snmp-server host 192.0.2.10 version 2c trapC0mm', `snmp-server host 192.0.2.10 version 2c ${MASK}`],
  ['snmp-server host 192.0.2.11 informs version 3 priv v3user', `snmp-server host 192.0.2.11 informs version 3 priv ${MASK}`],
  ['snmp-server user monitor grp v3 auth sha AuthPassw0rd priv aes 128 PrivPassw0rd', `snmp-server user monitor grp v3 auth sha ${MASK} priv aes 128 ${MASK}`],
  ['tacacs-server key 7 02050D480809', `tacacs-server key 7 ${MASK}`],
  [' key 7 104D000A0618', ` key 7 ${MASK}`],
  ['radius-server key R4diusKey', `radius-server key ${MASK}`],
  [' ip ospf message-digest-key 1 md5 7 0110050D5E', ` ip ospf message-digest-key 1 md5 7 ${MASK}`],
  [' ip ospf authentication-key 7 070C285F4D06', ` ip ospf authentication-key 7 ${MASK}`],
  [' neighbor 10.0.0.2 password 7 13061E010803', ` neighbor 10.0.0.2 password 7 ${MASK}`],
  [' key-string 7 1511021F0725', ` key-string 7 ${MASK}`],
  ['ntp authentication-key 1 md5 NtpS3cret 7', `ntp authentication-key 1 md5 ${MASK} 7`],
  ['crypto isakmp key IsakmpK3y address 198.51.100.1', `crypto isakmp key ${MASK} address 198.51.100.1`],
  [' pre-shared-key local Ik3v2Local', ` pre-shared-key local ${MASK}`],
  // Cisco NX-OS
  ['username admin password 5 $5$KLOPND$1x8Y3bOkoJ6hb9w.Q/ZAC9LwANq7hTlbVGDOYrdwEI1  role network-admin', `username admin password 5 ${MASK}  role network-admin`],
  ['snmp-server user admin network-admin auth md5 0x5e9bd2d0c4a3b7e1 priv 0x5e9bd2d0c4a3b7e1 localizedkey', `snmp-server user admin network-admin auth md5 ${MASK} priv ${MASK} localizedkey`],
  ['snmp-server community ops-ro group network-operator', `snmp-server community ${MASK} group network-operator`],
  // Arista EOS
  ['username admin privilege 15 role network-admin secret sha512 $6$Ab1cD2eF$Wq0', `username admin privilege 15 role network-admin secret sha512 ${MASK}`],
  ['   neighbor SPINES password 7 Q4fqtbqcZ7oQuKfuWtNGRQ==', `   neighbor SPINES password 7 ${MASK}`],
  // Junos (display set)
  ['set system root-authentication encrypted-password "$6$abc$def"', `set system root-authentication encrypted-password ${MASK}`],
  ['set system login user ops authentication encrypted-password "$6$x$y"', `set system login user ops authentication encrypted-password ${MASK}`],
  ['set snmp community public authorization read-only', `set snmp community ${MASK} authorization read-only`],
  ['set protocols bgp group ext authentication-key "$9$kmfz9Cu1Ihr"', `set protocols bgp group ext authentication-key ${MASK}`],
  ['set system radius-server 192.0.2.5 secret "$9$HkmT"', `set system radius-server 192.0.2.5 secret ${MASK}`],
  ['set security ike policy p pre-shared-key ascii-text "$9$xyz"', `set security ike policy p pre-shared-key ascii-text ${MASK}`],
  // FRR
  ['password zebra', `password ${MASK}`],
  ['enable password zebra', `enable password ${MASK}`],
  [' ip ospf authentication-key s3cr3tk', ` ip ospf authentication-key ${MASK}`],
  [' neighbor 10.1.1.1 password bgpS3cret', ` neighbor 10.1.1.1 password ${MASK}`],
]

const KEPT = [
  'service password-encryption',
  ' neighbor 10.0.0.2 send-community both',
  ' set community 65000:100',
  'hostname core-1',
  'interface GigabitEthernet0/1',
  ' ip address 10.0.0.1 255.255.255.252',
  'router ospf 1',
  'set interfaces ge-0/0/0 unit 0 family inet address 192.0.2.1/31',
  'ip prefix-list CHANGED seq 5 permit 10.0.0.0/8',
]

t.test('secrets are masked, the words around them kept', async (t) => {
  for (const [line, masked] of MASKED) t.equal(maskLine(line), masked, line)
  for (const line of KEPT) t.equal(maskLine(line), line, `${line} is not a secret`)
})

t.test('a private key block keeps only its frame', async (t) => {
  const text = storedConfiguration(['crypto key', '-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAx', 'c2VjcmV0', '-----END RSA PRIVATE KEY-----', 'end', ''].join('\n'))
  t.equal(text, `crypto key\n-----BEGIN RSA PRIVATE KEY----- ${MASK}\n-----END RSA PRIVATE KEY-----\nend\n`)
})

t.test('volatile lines are left out of the text and its fingerprint', async (t) => {
  const body = ['!', 'hostname core-1', 'snmp-server community n3tw0rkRO RO', 'end']
  const a = storedConfiguration(['Building configuration...', '', 'Current configuration : 4120 bytes', '! Last configuration change at 10:12:01 UTC Fri Nov 27 2026 by admin', ...body].join('\r\n'))
  const b = storedConfiguration(['Building configuration...', '', 'Current configuration : 4188 bytes', '! Last configuration change at 11:40:00 UTC Fri Nov 27 2026 by ops', 'ntp clock-period 17179865', ...body].join('\n'))
  t.equal(a, b)
  t.equal(configurationHash(a), configurationHash(b))
  t.match(configurationHash(a), /^[0-9a-f]{40}$/)
  t.notOk(a.includes('n3tw0rkRO'))
  const changed = storedConfiguration([...body.slice(0, -1), 'ip prefix-list X seq 5 permit 10.0.0.0/8', 'end'].join('\n'))
  t.not(configurationHash(changed), configurationHash(a), 'a real change changes the fingerprint')
})

t.test('saved or unsaved: the running and the startup configuration compared without their own headers', async (t) => {
  const body = ['!', 'version 17.9', 'hostname core-1', 'enable secret 9 $9$abc', 'interface Vlan10', ' ip address 10.10.0.1 255.255.255.0', 'end']
  const running = ['Building configuration...', '', 'Current configuration : 4120 bytes', '!', '! Last configuration change at 10:12:01 UTC Fri Nov 27 2026 by admin', ...body].join('\r\n')
  const startup = ['Using 4120 out of 524288 bytes', '!', '! Last configuration change at 10:12:01 UTC Fri Nov 27 2026 by admin', '! NVRAM config last updated at 10:13:40 UTC Fri Nov 27 2026 by admin', ...body].join('\r\n')
  t.equal(savedStatus(running, startup), 'saved', 'IOS: the same configuration')
  t.equal(savedStatus(running, startup.replace('10.10.0.1', '10.10.0.2')), 'unsaved', 'IOS: an address changed since the last save')
  t.equal(savedStatus(running, startup.replace(' ip address 10.10.0.1 255.255.255.0\r\n', '')), 'unsaved', 'IOS: a line added since')
  t.equal(savedStatus(running, 'startup-config is not present'), 'unsaved', 'IOS: never saved')
  const nx = (command: string, extra: string[]) => ['', `!Command: ${command}`, '!Running configuration last done at: Fri Nov 27 10:12:01 2026', '!Time: Fri Nov 27 11:00:00 2026', ...extra, '', 'version 9.3(8) Bios:version 05.45', 'hostname leaf-1', 'feature bgp'].join('\n')
  t.equal(savedStatus(nx('show running-config', []), nx('show startup-config', ['!Startup config saved at: Fri Nov 27 10:12:30 2026'])), 'saved', 'NX-OS')
  const eos = (command: string, extra: string[]) => [`! Command: ${command}`, ...extra, '! device: leaf1 (DCS-7050SX3-48YC8, EOS-4.31.2F)', '!', 'hostname leaf1', '!', 'end'].join('\n')
  t.equal(savedStatus(eos('show running-config', []), eos('show startup-config', ['! Startup-config last modified at Fri Nov 27 10:12:30 2026 by admin'])), 'saved', 'EOS')
  t.equal(savedStatus(eos('show running-config', []), eos('show startup-config', []).replace('hostname leaf1', 'hostname leaf2')), 'unsaved', 'EOS: the host name changed since')
})
