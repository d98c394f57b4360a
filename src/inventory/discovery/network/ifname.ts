/**
 * Interface names as the product shows them (`intName`): the abbreviations network engineers
 * use for long vendor names ("GigabitEthernet1/0/1" → "Gi1/0/1"); other names are kept.
 */
const ABBREVIATIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^HundredGigabitEthernet/i, 'Hu'],
  [/^FortyGigabitEthernet/i, 'Fo'],
  [/^TwentyFiveGigE/i, 'Twe'],
  [/^TenGigabitEthernet/i, 'Te'],
  [/^TwoGigabitEthernet/i, 'Tw'],
  [/^GigabitEthernet/i, 'Gi'],
  [/^FastEthernet/i, 'Fa'],
  [/^Ethernet(?=\d+\/)/, 'Eth'],
  [/^Ethernet(?=\d+$)/, 'Et'],
  [/^Port-channel/i, 'Po'],
  [/^Loopback/i, 'Lo'],
  [/^Vlan(?=\d)/i, 'Vl'],
  [/^Management(?=\d)/, 'Ma'],
  [/^Tunnel(?=\d)/, 'Tu'],
]

export function shortName(name: string): string {
  for (const [re, short] of ABBREVIATIONS) if (re.test(name)) return name.replace(re, short)
  return name
}
