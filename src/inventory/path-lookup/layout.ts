/**
 * Where a drawing (draw.ts) puts its boxes and lines. dagre's layered layout lays out each group
 * of nodes on its own (a path: one group, left to right; a topology: one group per site, top to
 * bottom), and the groups are packed in rows. Laying out the sites apart rather than as dagre's
 * compound clusters keeps each layout small (dagre's time grows fast with the node count) and
 * avoids the clusters' failures on some graphs ("Not possible to find intersection inside of the
 * rectangle"); should dagre still fail on a group, that group falls back to a grid with straight
 * lines. Links between groups, and a device's links to itself, are drawn straight.
 */
import { Graph, layout, type EdgeLabel, type Point } from '@dagrejs/dagre'

export type { Point }

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export interface LayoutNode {
  id: string
  width: number
  height: number
  group: string
}

export interface LayoutEdge {
  id: string
  source: string
  target: string
}

export interface Laid {
  width: number
  height: number
  /** Top-left corner and size of each node. */
  nodes: Map<string, Box>
  /** Each edge's line, from the source's border to the target's. */
  edges: Map<string, Point[]>
  /** Each named group's frame (a site), with room for its name on top. */
  groups: Map<string, Box>
}

const MARGIN = 24
const GROUP_PADDING = 16
const GROUP_TITLE = 26
const GAP = 32
/** Width a row of groups may reach before the next group starts a new row. */
const ROW_WIDTH = 1400

interface Block {
  width: number
  height: number
  nodes: Map<string, Box>
  edges: Map<string, Point[]>
}

/** Where the line from the centre of `from` towards `to` leaves `from`'s box. */
function border(from: Box, to: Point): Point {
  const cx = from.x + from.width / 2
  const cy = from.y + from.height / 2
  const dx = to.x - cx
  const dy = to.y - cy
  if (dx === 0 && dy === 0) return { x: cx, y: cy }
  const s = Math.min(dx === 0 ? Infinity : from.width / 2 / Math.abs(dx), dy === 0 ? Infinity : from.height / 2 / Math.abs(dy))
  return { x: cx + dx * s, y: cy + dy * s }
}

const centre = (b: Box): Point => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })

/** A straight line between two boxes, or a small loop for a box linked to itself. */
function straight(a: Box, b: Box): Point[] {
  if (a === b) {
    const x = a.x + a.width
    const y = a.y + a.height / 2
    return [{ x, y: y - 8 }, { x: x + 18, y: y - 14 }, { x: x + 18, y: y + 14 }, { x, y: y + 8 }]
  }
  return [border(a, centre(b)), border(b, centre(a))]
}

/** A grid, for a group dagre could not lay out. */
function grid(nodes: LayoutNode[]): Block {
  const columns = Math.max(1, Math.ceil(Math.sqrt(nodes.length)))
  const cell = { width: Math.max(...nodes.map((n) => n.width)) + GAP, height: Math.max(...nodes.map((n) => n.height)) + GAP }
  const boxes = new Map<string, Box>()
  nodes.forEach((n, i) => boxes.set(n.id, { x: (i % columns) * cell.width, y: Math.floor(i / columns) * cell.height, width: n.width, height: n.height }))
  return { width: columns * cell.width - GAP, height: Math.ceil(nodes.length / columns) * cell.height - GAP, nodes: boxes, edges: new Map() }
}

function layered(nodes: LayoutNode[], edges: LayoutEdge[], rankdir: 'LR' | 'TB'): Block {
  const g = new Graph({ multigraph: true })
  g.setGraph({ rankdir, nodesep: 40, ranksep: rankdir === 'LR' ? 110 : 80, marginx: 0, marginy: 0 })
  g.setDefaultEdgeLabel(() => ({}))
  for (const n of nodes) g.setNode(n.id, { width: n.width, height: n.height })
  for (const e of edges) g.setEdge(e.source, e.target, { minlen: 1 }, e.id)
  try {
    layout(g)
  } catch {
    return grid(nodes)
  }
  const boxes = new Map<string, Box>()
  for (const n of nodes) {
    const p = g.node(n.id)
    boxes.set(n.id, { x: (p.x ?? 0) - n.width / 2, y: (p.y ?? 0) - n.height / 2, width: n.width, height: n.height })
  }
  const lines = new Map<string, Point[]>()
  for (const e of edges) {
    const points = (g.edge({ v: e.source, w: e.target, name: e.id }) as EdgeLabel | undefined)?.points
    if (points && points.length >= 2) lines.set(e.id, points)
  }
  const { width = 0, height = 0 } = g.graph()
  return { width, height, nodes: boxes, edges: lines }
}

const moved = (b: Box, dx: number, dy: number): Box => ({ ...b, x: b.x + dx, y: b.y + dy })

/**
 * Lays out `nodes` by their group ('' for none): one layered layout per group, groups packed in
 * rows; `rankdir` LR for a path, TB for a topology. A path keeps all its nodes in one layout.
 */
export function layOut(nodes: LayoutNode[], edges: LayoutEdge[], rankdir: 'LR' | 'TB', byGroup: boolean): Laid {
  const groupOf = new Map(nodes.map((n) => [n.id, byGroup ? n.group : '']))
  const members = new Map<string, LayoutNode[]>()
  const inner = new Map<string, LayoutEdge[]>()
  const add = <T>(map: Map<string, T[]>, key: string, item: T) => {
    const list = map.get(key)
    if (list) list.push(item)
    else map.set(key, [item])
  }
  for (const n of nodes) add(members, groupOf.get(n.id)!, n)
  for (const e of edges) {
    const g = groupOf.get(e.source)
    if (g !== undefined && e.source !== e.target && g === groupOf.get(e.target)) add(inner, g, e)
  }
  const laid: Laid = { width: 0, height: 0, nodes: new Map(), edges: new Map(), groups: new Map() }
  let x = MARGIN
  let y = MARGIN
  let rowHeight = 0
  for (const [group, list] of [...members].sort(([a], [b]) => a.localeCompare(b))) {
    const block = layered(list, inner.get(group) ?? [], rankdir)
    const framed = group !== ''
    const width = block.width + (framed ? 2 * GROUP_PADDING : 0)
    const height = block.height + (framed ? GROUP_PADDING + GROUP_TITLE : 0)
    if (x > MARGIN && x + width > ROW_WIDTH) {
      x = MARGIN
      y += rowHeight + GAP
      rowHeight = 0
    }
    const dx = x + (framed ? GROUP_PADDING : 0)
    const dy = y + (framed ? GROUP_TITLE : 0)
    for (const [id, b] of block.nodes) laid.nodes.set(id, moved(b, dx, dy))
    for (const [id, points] of block.edges) laid.edges.set(id, points.map((p) => ({ x: p.x + dx, y: p.y + dy })))
    if (framed) laid.groups.set(group, { x, y, width, height })
    x += width + GAP
    rowHeight = Math.max(rowHeight, height)
    laid.width = Math.max(laid.width, x - GAP + MARGIN)
    laid.height = Math.max(laid.height, y + height + MARGIN)
  }
  for (const e of edges) {
    if (laid.edges.has(e.id)) continue
    const a = laid.nodes.get(e.source)
    const b = laid.nodes.get(e.target)
    if (a && b) laid.edges.set(e.id, straight(a, b))
  }
  // room for a loop or a drop note below the lowest boxes
  laid.width += 24
  laid.height += 24
  return laid
}
