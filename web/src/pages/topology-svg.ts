/**
 * The drawn topology as an SVG file: what cytoscape shows (positions, shapes, colours from its
 * computed style, labels), as vector shapes. Written with the DOM's SVG elements and
 * XMLSerializer, so names from the network end up as escaped text, never as markup.
 *
 * Why not a library: the one cytoscape extension for it (cytoscape-svg) is GPL-3.0, which this
 * product's licence cannot take; cytoscape itself exports PNG and JPEG only.
 */
import type { Core, EdgeSingular, NodeSingular } from 'cytoscape'

const NS = 'http://www.w3.org/2000/svg'
const MARGIN = 20

type Attrs = Record<string, string | number>

function el(doc: Document, name: string, attrs: Attrs, text?: string): Element {
  const e = doc.createElementNS(NS, name)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v))
  if (text !== undefined) e.textContent = text
  return e
}

function points(list: Array<[number, number]>): string {
  return list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')
}

function paint(n: NodeSingular): Attrs {
  const border = parseFloat(String(n.style('border-width'))) || 0
  const dashed = n.style('border-style') === 'dashed'
  return {
    fill: String(n.style('background-color')),
    stroke: border > 0 ? String(n.style('border-color')) : 'none',
    'stroke-width': border,
    ...(dashed ? { 'stroke-dasharray': '4 2' } : {}),
  }
}

function nodeShape(doc: Document, n: NodeSingular): Element {
  const { x, y } = n.position()
  const w = n.width()
  const h = n.height()
  const shape = String(n.style('shape'))
  const look = paint(n)
  if (shape === 'diamond') return el(doc, 'polygon', { points: points([[x, y - h / 2], [x + w / 2, y], [x, y + h / 2], [x - w / 2, y]]), ...look })
  if (shape === 'triangle') return el(doc, 'polygon', { points: points([[x, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]]), ...look })
  if (shape.includes('rectangle')) return el(doc, 'rect', { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: shape.startsWith('round') ? 4 : 0, ...look })
  return el(doc, 'ellipse', { cx: x, cy: y, rx: w / 2, ry: h / 2, ...look })
}

function edgePath(e: EdgeSingular): string {
  const s = e.sourceEndpoint()
  const t = e.targetEndpoint()
  const control = e.controlPoints() as Array<{ x: number; y: number }> | undefined
  const c = control?.[0]
  return c ? `M${s.x.toFixed(1)},${s.y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${t.x.toFixed(1)},${t.y.toFixed(1)}` : `M${s.x.toFixed(1)},${s.y.toFixed(1)} L${t.x.toFixed(1)},${t.y.toFixed(1)}`
}

export function topologySvg(cy: Core, title: string): string {
  const box = cy.elements().boundingBox({ includeLabels: true })
  const doc = document.implementation.createDocument(NS, 'svg', null)
  const svg = doc.documentElement
  const [w, h] = [box.w + 2 * MARGIN, box.h + 2 * MARGIN]
  for (const [k, v] of Object.entries({ viewBox: `${(box.x1 - MARGIN).toFixed(1)} ${(box.y1 - MARGIN).toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`, width: Math.ceil(w), height: Math.ceil(h), 'font-family': 'sans-serif' })) svg.setAttribute(k, String(v))
  svg.append(el(doc, 'title', {}, title))
  svg.append(el(doc, 'rect', { x: box.x1 - MARGIN, y: box.y1 - MARGIN, width: w, height: h, fill: '#ffffff' }))

  // sites first (boxes behind), then links, then devices on top
  const sites = el(doc, 'g', { class: 'sites' })
  for (const n of cy.nodes(':parent')) {
    const b = n.boundingBox({ includeLabels: false })
    sites.append(el(doc, 'rect', { x: b.x1, y: b.y1, width: b.w, height: b.h, rx: 6, fill: String(n.style('background-color')), 'fill-opacity': n.style('background-opacity'), stroke: String(n.style('border-color')), 'stroke-width': 1, 'stroke-dasharray': '4 2' }))
    sites.append(el(doc, 'text', { x: b.x1 + 4, y: b.y1 - 4, 'font-size': 10, 'font-weight': 'bold', fill: '#1b1f24' }, String(n.data('label'))))
  }
  const links = el(doc, 'g', { class: 'links', fill: 'none' })
  const linkLabels = el(doc, 'g', { class: 'link-labels', 'font-size': 6, fill: '#57606a', 'text-anchor': 'middle' })
  for (const e of cy.edges()) {
    links.append(el(doc, 'path', { d: edgePath(e), stroke: String(e.style('line-color')), 'stroke-width': parseFloat(String(e.style('width'))) || 1 }))
    const m = e.midpoint()
    const label = String(e.data('label') ?? '')
    if (label !== '') linkLabels.append(el(doc, 'text', { x: m.x, y: m.y - 2 }, label))
  }
  const devices = el(doc, 'g', { class: 'devices', 'font-size': 9, 'text-anchor': 'middle', fill: '#1b1f24' })
  for (const n of cy.nodes(':childless')) {
    const g = el(doc, 'g', { class: `node ${n.classes().join(' ')}` })
    g.append(nodeShape(doc, n))
    g.append(el(doc, 'text', { x: n.position().x, y: n.position().y + n.height() / 2 + 11 }, String(n.data('label'))))
    devices.append(g)
  }
  svg.append(sites, links, linkLabels, devices)
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}\n`
}
