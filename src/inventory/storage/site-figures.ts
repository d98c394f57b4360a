/**
 * The tables of no one device, brought in line with the device rows after some devices' rows
 * were replaced or removed (`replaceDeviceRows`), with the rules a discovery builds them by:
 *
 * - `addressing/hosts`: a host is located by the devices that saw it, its edge ports and its
 *   gateways. The entries of removed or rediscovered devices leave those lists, and a host that
 *   no remaining device saw any more leaves the table (a host that had neither before stays as it
 *   was); what rediscovered devices see now joins the host of the same VRF and address, or makes
 *   a new one.
 * - `inventory/sites`: one row per site that holds a device. The counts are measured again from
 *   the rows (devices by type, distinct networks of the managed addresses, end hosts, distinct
 *   VLAN ids); a site left without devices goes, and a site a new device brings gets a row.
 */
import type { Queryable } from '../../shared/db/index.js'
import { Pace } from '../../shared/pace.js'
import { partitionTable, storageColumns } from '../catalog/index.js'
import { HOSTS, MANAGED_DEVS } from '../catalog/addressing.js'
import { DEVICES, SITES } from '../catalog/inventory.js'
import { VLANS } from '../catalog/layer2.js'

type Link = { sn?: unknown }
const hostColumns = storageColumns(HOSTS)
const EDGES = hostColumns.findIndex((c) => c.name === 'edges')
const GATEWAYS = hostColumns.findIndex((c) => c.name === 'gateways')

/** A source's host rows that devices `wanted` saw, their edges and gateways cut to those devices. */
export async function hostsSeenBy(rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>, wanted: (sn: string) => boolean, pace = new Pace()): Promise<unknown[][]> {
  const seen = (links: unknown) => (Array.isArray(links) ? (links as Link[]).filter((l) => typeof l?.sn === 'string' && wanted(l.sn)) : [])
  const out: unknown[][] = []
  for await (const row of rows) {
    if (pace.due) await pace.turn()
    const edges = seen(row[EDGES])
    const gateways = seen(row[GATEWAYS])
    if (edges.length === 0 && gateways.length === 0) continue
    const kept = [...row]
    kept[EDGES] = edges
    kept[GATEWAYS] = gateways
    out.push(kept)
  }
  return out
}

/**
 * The hosts after devices `sns` left the snapshot and `fresh` (from `hostsSeenBy`) came in with
 * their new rows: the hosts lose what those devices saw before, a host nothing else saw goes, and
 * what they see now is added to the host of the same VRF and address, or makes a new host.
 */
export async function followHosts(tx: Queryable, snapshotId: string, sns: readonly string[], fresh: readonly unknown[][]): Promise<void> {
  const hosts = partitionTable(HOSTS, snapshotId)
  // An uploaded snapshot may hold anything JSON there: what is not an array names no device, and
  // neither does an entry without a serial.
  const isList = (column: string) => `jsonb_typeof(h.${column}) = 'array'`
  const both = ['edges', 'gateways'].map((c) => `(CASE WHEN ${isList(c)} THEN h.${c} ELSE '[]'::jsonb END)`).join(' || ')
  const links = `jsonb_array_elements(${both})`
  const named = `coalesce(e->>'sn' = ANY($1::text[]), false)`
  await tx.query(`DELETE FROM ${hosts} h WHERE jsonb_array_length(${both}) > 0 AND NOT EXISTS (SELECT 1 FROM ${links} e WHERE NOT ${named})`, [[...sns]])
  const kept = (column: string) => `(SELECT coalesce(jsonb_agg(e ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(h.${column}) WITH ORDINALITY AS x(e, n) WHERE NOT ${named})`
  const pruned = (column: string) => `CASE WHEN ${isList(column)} THEN ${kept(column)} ELSE h.${column} END`
  await tx.query(`UPDATE ${hosts} h SET edges = ${pruned('edges')}, gateways = ${pruned('gateways')} WHERE EXISTS (SELECT 1 FROM ${links} e WHERE ${named})`, [[...sns]])
  if (fresh.length === 0) return
  // the hosts of a thousand devices are a few hundred thousand records: encoded in turns
  const records: string[] = []
  const pace = new Pace()
  for (const row of fresh) {
    records.push(JSON.stringify(Object.fromEntries([['snapshot_id', snapshotId], ...hostColumns.map((c, i) => [c.storage, row[i] ?? null])])))
    if (pace.due) await pace.turn()
  }
  await tx.query(
    `WITH fresh AS (SELECT * FROM jsonb_populate_recordset(NULL::${hosts}, $1::jsonb)),
     joined AS (UPDATE ${hosts} h SET edges = h.edges || f.edges, gateways = h.gateways || f.gateways FROM fresh f
                WHERE h.ip = f.ip AND h.vrf IS NOT DISTINCT FROM f.vrf RETURNING f.ip, f.vrf)
     INSERT INTO ${hosts} SELECT f.* FROM fresh f WHERE NOT EXISTS (SELECT 1 FROM joined j WHERE j.ip = f.ip AND j.vrf IS NOT DISTINCT FROM f.vrf)`,
    [`[${records.join(',')}]`],
  )
}

/** Brings `inventory/sites` in line with the devices and what they hold. */
export async function refreshSites(tx: Queryable, snapshotId: string): Promise<void> {
  const sites = partitionTable(SITES, snapshotId)
  const devices = partitionTable(DEVICES, snapshotId)
  await tx.query(`DELETE FROM ${sites} s WHERE NOT EXISTS (SELECT 1 FROM ${devices} d WHERE d.site_name = s.site_name)`)
  await tx.query(
    `INSERT INTO ${sites} (snapshot_id, id, site_name)
     SELECT $1, 's' || (coalesce((SELECT max(substr(id, 2)::bigint) FROM ${sites} WHERE id ~ '^s[0-9]{1,15}$'), -1) + row_number() OVER (ORDER BY n.site_name)), n.site_name
     FROM (SELECT DISTINCT site_name FROM ${devices} d WHERE NOT EXISTS (SELECT 1 FROM ${sites} s WHERE s.site_name = d.site_name)) n`,
    [snapshotId],
  )
  const count = (where: string) => `(SELECT count(*) FROM ${devices} d WHERE d.site_name = s.site_name${where})`
  await tx.query(
    `UPDATE ${sites} s SET
       devices_count = ${count('')},
       routers_count = ${count(" AND d.dev_type = 'router'")},
       switches_count = ${count(" AND d.dev_type IN ('switch', 'l3switch')")},
       networks_count = (SELECT count(DISTINCT m.net) FROM ${partitionTable(MANAGED_DEVS, snapshotId)} m WHERE m.site_name = s.site_name),
       users_count = (SELECT count(*) FROM ${partitionTable(HOSTS, snapshotId)} h WHERE h.site_name = s.site_name),
       vlan_count = (SELECT count(DISTINCT v.vlan_id) FROM ${partitionTable(VLANS, snapshotId)} v WHERE v.site_name = s.site_name)`,
  )
}
