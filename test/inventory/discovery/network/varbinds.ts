/** An SNMP agent made of varbinds a test writes from a MIB's definitions: what discovery's MIB readers read in unit tests. */
import type { MibReader } from '../../../../src/inventory/discovery/network/snmp/client.js'
import { compareOid, tableRows, type Vb } from '../../../../src/inventory/discovery/network/snmp/values.js'

export class Recorded implements MibReader {
  private readonly vbs: Vb[]
  constructor(vbs: Array<[string, number, unknown]>) {
    this.vbs = vbs.map(([oid, type, value]) => ({ oid, type, value })).sort((a, b) => compareOid(a.oid, b.oid))
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
