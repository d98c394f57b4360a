/**
 * The topology diagram of sites (`POST graphs` with `type: topology`): the devices of the named
 * sites (every site for `$main`) as nodes grouped by site, the links between them from the
 * neighbours table (CDP/LLDP) as edges, one per pair of ports. Two statements, both on indexed
 * columns; a diagram of more than MAX_NODES devices is refused (name sites instead).
 */
import type { Queryable } from '../../shared/db/index.js'
import { invalidInput } from '../../shared/errors.js'
import { EDGE_SETTINGS, pathSettings } from './graph.js'

export const MAX_NODES = 5000

export async function topologyGraph(db: Queryable, snapshot: string, sites: string[] | null): Promise<Record<string, unknown>> {
  const devices = (
    await db.query<{ sn: string; hostname: string; siteName: string | null; devType: string | null }>(
      `SELECT sn, hostname, site_name AS "siteName", dev_type AS "devType" FROM inventory.devices
       WHERE snapshot_id = $1 AND ($2::text[] IS NULL OR site_name = ANY($2::text[])) ORDER BY site_name, hostname LIMIT ${MAX_NODES + 1}`,
      [snapshot, sites],
    )
  ).rows
  if (devices.length > MAX_NODES) throw invalidInput([{ message: `"parameters.paths" names more than ${MAX_NODES} devices; name fewer sites` }])
  const links = (
    await db.query<{ localSn: string; localInt: string | null; remoteSn: string; remoteInt: string | null; protocols: string[] | null }>(
      `SELECT local_sn AS "localSn", local_int AS "localInt", remote_sn AS "remoteSn", remote_int AS "remoteInt", protocols FROM inventory.neighbors
       WHERE snapshot_id = $1 AND local_sn = ANY($2::text[]) AND remote_sn = ANY($2::text[]) ORDER BY local_sn, local_int`,
      [snapshot, devices.map((d) => d.sn)],
    )
  ).rows
  const nodes: Record<string, unknown> = {}
  for (const d of devices) {
    const id = `device/${d.sn}`
    nodes[id] = { id, label: d.hostname, sn: d.sn, boxId: d.siteName, children: [], graphType: 'topology', parentPath: d.siteName, type: d.devType ?? 'router' }
  }
  const edges: Record<string, unknown> = {}
  for (const l of links) {
    const a = `device/${l.localSn}@${l.localInt ?? ''}`
    const b = `device/${l.remoteSn}@${l.remoteInt ?? ''}`
    // one edge per link, whichever end reports it
    const flip = b < a
    const id = flip ? `${b}--${a}` : `${a}--${b}`
    if (edges[id]) continue
    const label = (text: string | null) => (text === null ? [] : [{ type: 'intName', visible: true, text }])
    edges[id] = {
      id,
      source: `device/${flip ? l.remoteSn : l.localSn}`,
      target: `device/${flip ? l.localSn : l.remoteSn}`,
      direction: 'undirected',
      edgeSettingsId: EDGE_SETTINGS.neighbors,
      circle: false,
      children: [],
      labels: { center: (l.protocols ?? []).map((p) => ({ type: 'protocol', visible: true, text: p })), source: label(flip ? l.remoteInt : l.localInt), target: label(flip ? l.localInt : l.remoteInt) },
    }
  }
  return { graphResult: { graphData: { nodes, edges }, settings: pathSettings(), boxLabels: {} } }
}
