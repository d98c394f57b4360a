/**
 * A graph answer of `POST graphs` (a path lookup or a site topology) drawn as SVG, for
 * `graphs/svg` and `graphs/png` (the renderings IP Fabric's diagram clients ask for). Where
 * things go is layout.ts's (left to right along a path; a topology's sites as frames);
 * edges take the colour of their edge settings, branches that do not deliver are red and dashed,
 * each end is labelled with its interface. Every text comes from the network (host names,
 * interface names, sites): it is escaped, and characters XML cannot carry are dropped.
 */
import { layOut } from './layout.js'
import { invalidInput } from '../../shared/errors.js'

/** Most devices one drawing holds (a layered layout of more takes seconds and is unreadable). */
export const MAX_DRAWN_NODES = 400

const FONT = "'DejaVu Sans', Verdana, Arial, sans-serif"
const NODE_HEIGHT = 44
const CHAR_WIDTH = 7.2

const FILL: Readonly<Record<string, string>> = { host: '#f3f6f9', router: '#e3f0fb', switch: '#e8f5e3', l3switch: '#e8f5e3', fw: '#fde9e7', ap: '#f6effa' }
const DROPPED = '#d62728'

interface Label {
  text?: unknown
}
interface GraphNode {
  id: string
  label?: unknown
  type?: unknown
  boxId?: unknown
}
interface GraphEdge {
  id: string
  source: string
  target: string
  direction?: unknown
  edgeSettingsId?: unknown
  labels?: { source?: Label[]; target?: Label[]; center?: Label[] }
  trafficScore?: { accepted?: number; dropped?: number }
}
interface Decisions {
  [node: string]: { traces?: Array<{ trace?: Array<{ events?: Array<{ type?: string; reason?: unknown }> }> }> }
}
interface Answer {
  pathlookup?: { decisions?: Decisions }
  graphResult: {
    graphData: { nodes: Record<string, GraphNode>; edges: Record<string, GraphEdge> }
    settings: { edges: Array<{ id: string; style?: { color?: string } }> }
  }
}

/** Text as XML character data or an attribute value: control characters (XML 1.0 admits few) and lone surrogates dropped. */
export function xmlText(value: unknown): string {
  return String(value ?? '')
    .replace(/[\p{Cc}\ufffe\uffff]/gu, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** Why branches end at each node that drops them (from the answer's decisions). */
function drops(decisions: Decisions | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const [node, d] of Object.entries(decisions ?? {})) {
    const reasons = new Set<string>()
    for (const tr of d.traces ?? []) for (const step of tr.trace ?? []) for (const e of step.events ?? []) if (e.type === 'drop packet') reasons.add(String(e.reason ?? 'dropped'))
    if (reasons.size > 0) out.set(node, [...reasons].join(', '))
  }
  return out
}

const texts = (labels: Label[] | undefined) => (labels ?? []).map((l) => String(l.text ?? '')).filter((t) => t !== '')
const width = (text: string, min: number) => Math.max(min, Math.ceil(text.length * CHAR_WIDTH) + 24)
const round = (n: number) => Math.round(n * 10) / 10

/** The SVG of a graph answer; `title` names what it shows (the lookup asked for). */
export function drawGraph(answer: Record<string, unknown>, title: string): string {
  const { graphData, settings } = (answer as unknown as Answer).graphResult
  const dropped = drops((answer as unknown as Answer).pathlookup?.decisions)
  const nodes = Object.values(graphData.nodes)
  if (nodes.length > MAX_DRAWN_NODES) throw invalidInput([{ message: `the diagram holds ${nodes.length} devices; at most ${MAX_DRAWN_NODES} are drawn: name fewer sites, or ask graphs for the JSON` }])
  const edges = Object.values(graphData.edges)
  const colours = new Map(settings.edges.map((s) => [s.id, s.style?.color ?? '#8a8a8a']))
  const path = edges.some((e) => e.direction === 'forward')

  const laid = layOut(
    nodes.map((n) => ({ id: n.id, width: width(String(n.label ?? n.id), 96), height: NODE_HEIGHT, group: typeof n.boxId === 'string' ? n.boxId : '' })),
    edges.filter((e) => graphData.nodes[e.source] && graphData.nodes[e.target]),
    path ? 'LR' : 'TB',
    !path,
  )

  const out: string[] = []
  const w = Math.ceil(laid.width)
  const h = Math.ceil(laid.height)
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${xmlText(FONT)}" font-size="12">`)
  out.push(`<title>${xmlText(title)}</title>`)
  // An arrow head per colour drawn (renderers differ on SVG 2's context-stroke).
  const heads = new Map<string, string>()
  const colourOf = (e: GraphEdge) => ((e.trafficScore?.dropped ?? 0) > 0 && (e.trafficScore?.accepted ?? 0) === 0 ? DROPPED : (colours.get(String(e.edgeSettingsId)) ?? '#8a8a8a'))
  for (const e of edges) if (e.direction === 'forward' && !heads.has(colourOf(e))) heads.set(colourOf(e), `arrow${heads.size}`)
  out.push(`<defs>${[...heads].map(([c, id]) => `<marker id="${id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${xmlText(c)}"/></marker>`).join('')}</defs>`)
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`)
  for (const [site, b] of laid.groups) {
    out.push(`<g class="site"><rect x="${round(b.x)}" y="${round(b.y)}" width="${round(b.width)}" height="${round(b.height)}" rx="8" fill="#fafafa" stroke="#b0b7c0" stroke-dasharray="4 3"/>`)
    out.push(`<text x="${round(b.x + 10)}" y="${round(b.y + 17)}" fill="#4a5561" font-weight="bold">${xmlText(site)}</text></g>`)
  }
  for (const e of edges) {
    const points = laid.edges.get(e.id) ?? []
    if (points.length < 2) continue
    const colour = colourOf(e)
    const failed = colour === DROPPED
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ')
    const arrow = e.direction === 'forward' ? ` marker-end="url(#${heads.get(colour)!})"` : ''
    out.push(`<g class="edge"><path d="${d}" fill="none" stroke="${xmlText(colour)}" stroke-width="2"${failed ? ' stroke-dasharray="6 4"' : ''}${arrow}/>`)
    const end = (text: string, at: { x: number; y: number }, toward: { x: number; y: number }) => {
      const x = at.x + (toward.x - at.x) * 0.35
      const y = at.y + (toward.y - at.y) * 0.35 - 4
      out.push(`<text x="${round(x)}" y="${round(y)}" font-size="10" fill="#333" text-anchor="middle">${xmlText(text)}</text>`)
    }
    const [first, second] = [points[0]!, points[1]!]
    const [last, before] = [points[points.length - 1]!, points[points.length - 2]!]
    const source = texts(e.labels?.source).join(', ')
    const target = texts(e.labels?.target).join(', ')
    if (source) end(source, first, second)
    if (target) end(target, last, before)
    const center = texts(e.labels?.center).join(', ')
    if (center) {
      const mid = points[Math.floor(points.length / 2)]!
      out.push(`<text x="${round(mid.x)}" y="${round(mid.y - 6)}" font-size="10" fill="#666" text-anchor="middle">${xmlText(center)}</text>`)
    }
    out.push('</g>')
  }
  for (const n of nodes) {
    const b = laid.nodes.get(n.id)
    if (b === undefined) continue
    const type = String(n.type ?? '')
    const cx = b.x + b.width / 2
    const cy = b.y + b.height / 2
    // on a path, the site goes with the device (a topology frames its sites)
    const subtitle = path && typeof n.boxId === 'string' && n.boxId !== '' ? `${type} · ${n.boxId}` : type
    const drop = dropped.get(n.id)
    out.push(`<g class="node"><rect x="${round(b.x)}" y="${round(b.y)}" width="${round(b.width)}" height="${NODE_HEIGHT}" rx="6" fill="${FILL[type] ?? '#eef0f2'}" stroke="${drop === undefined ? '#5b6b7b' : DROPPED}"${drop === undefined ? '' : ' stroke-width="2"'}/>`)
    if (drop !== undefined) out.push(`<text class="drop" x="${round(cx)}" y="${round(b.y + NODE_HEIGHT + 14)}" text-anchor="middle" font-size="11" fill="${DROPPED}">dropped: ${xmlText(drop)}</text>`)
    out.push(`<text x="${round(cx)}" y="${round(cy - 2)}" text-anchor="middle" font-weight="bold" fill="#1d2a36">${xmlText(n.label ?? n.id)}</text>`)
    out.push(`<text x="${round(cx)}" y="${round(cy + 13)}" text-anchor="middle" font-size="10" fill="#5b6b7b">${xmlText(subtitle)}</text></g>`)
  }
  out.push('</svg>')
  return out.join('\n')
}
