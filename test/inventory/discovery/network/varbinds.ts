/** An SNMP agent made of varbinds a test writes from a MIB's definitions: what discovery's MIB readers read in unit tests. */
import type { MibReader } from '../../../../src/inventory/discovery/network/snmp/client.js'
import { compareOid, tableRows, type Vb } from '../../../../src/inventory/discovery/network/snmp/values.js'

export class Recorded implements MibReader {
  private readonly vbs: Vb[]
  /** `vlans`: the varbinds of each VLAN's instance (a Cisco switch's community "community@vlan"); a VLAN not given answers nothing. */
  constructor(
    vbs: Array<[string, number, unknown]>,
    private readonly vlans: ReadonlyMap<number, Array<[string, number, unknown]>> = new Map(),
  ) {
    this.vbs = vbs.map(([oid, type, value]) => ({ oid, type, value })).sort((a, b) => compareOid(a.oid, b.oid))
  }
  inVlan(vlan: number) {
    return Object.assign(new Recorded(this.vlans.get(vlan) ?? []), { close: () => {} })
  }
  async get(oids: readonly string[]) {
    return new Map(this.vbs.filter((v) => oids.includes(v.oid)).map((v) => [v.oid, v]))
  }
  async walk(columns: readonly string[]) {
    return new Map(columns.map((c) => [c, this.vbs.filter((v) => v.oid.startsWith(`${c}.`))]))
  }
  async table(names: Readonly<Record<string, string>>) {
    return tableRows(await this.walk(Object.values(names)), names)
  }
}
