import { useQuery } from '@tanstack/react-query'
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { postJson } from '../api'
import { navigate, useLocation, withQuery } from '../router'
import type { TableAnswer } from '../types'

interface Neighbor {
  localHost: string | null
  localInt: string | null
  remoteHost: string | null
  remoteInt: string | null
  siteName: string | null
}
interface Device {
  hostname: string
  devType: string | null
  siteName: string | null
}

const CYTOSCAPE_STYLESHEET = '__________cytoscape_stylesheet'

const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { label: 'data(id)', 'font-size': 9, 'background-color': '#1f4e79', color: '#1b1f24', width: 18, height: 18, 'text-valign': 'bottom', 'text-margin-y': 3 } },
  { selector: 'node.router', style: { shape: 'ellipse', 'background-color': '#7a1f5c' } },
  { selector: 'node.switch', style: { shape: 'round-rectangle', 'background-color': '#1f4e79' } },
  { selector: 'node.fw', style: { shape: 'diamond', 'background-color': '#a40e26' } },
  { selector: 'node.ap', style: { shape: 'triangle', 'background-color': '#0b5d1e' } },
  { selector: 'node.unmanaged', style: { 'background-color': '#fff', 'border-width': 2, 'border-color': '#8c959f', 'border-style': 'dashed' } },
  { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#f59e0b' } },
  { selector: 'edge', style: { width: 1.5, 'line-color': '#8c959f', label: 'data(label)', 'font-size': 6, 'text-rotation': 'autorotate', color: '#57606a', 'curve-style': 'bezier' } },
]

function kind(devType: string | null): string {
  const t = (devType ?? '').toLowerCase()
  if (t.includes('router')) return 'router'
  if (t.includes('fw') || t.includes('firewall')) return 'fw'
  if (t === 'ap' || t.includes('access point')) return 'ap'
  return 'switch'
}

/** The LLDP/CDP neighbours of a site (or of the whole snapshot) drawn as a graph. */
export function Topology(): ReactNode {
  const loc = useLocation()
  const snapshot = loc.query.get('snapshot') ?? '$last'
  const site = loc.query.get('site') ?? ''
  const [search, setSearch] = useState('')
  const box = useRef<HTMLDivElement>(null)
  const graph = useRef<Core | null>(null)
  const siteFilter = site ? { siteName: ['eq', site] } : {}
  const neighbors = useQuery({
    queryKey: ['topology', snapshot, site],
    queryFn: () => postJson<TableAnswer>('tables/neighbors/all', { snapshot, columns: ['localHost', 'localInt', 'remoteHost', 'remoteInt', 'siteName'], filters: siteFilter, pagination: { start: 0, limit: 10000 } }),
  })
  const devices = useQuery({
    queryKey: ['topology-devices', snapshot],
    queryFn: () => postJson<TableAnswer>('tables/inventory/devices', { snapshot, columns: ['hostname', 'devType', 'siteName'], pagination: { start: 0, limit: 10000 } }),
  })
  const sites = [...new Set(((devices.data?.data ?? []) as unknown as Device[]).map((d) => d.siteName ?? '').filter((s) => s !== ''))].sort()

  useEffect(() => {
    if (!box.current || !neighbors.data || !devices.data) return
    const known = new Map(((devices.data.data ?? []) as unknown as Device[]).map((d) => [d.hostname, d]))
    const nodes = new Map<string, ElementDefinition>()
    const edges = new Map<string, ElementDefinition>()
    const node = (name: string): void => {
      if (nodes.has(name)) return
      const d = known.get(name)
      nodes.set(name, { data: { id: name }, classes: d ? kind(d.devType) : 'unmanaged' })
    }
    for (const n of neighbors.data.data as unknown as Neighbor[]) {
      if (!n.localHost || !n.remoteHost) continue
      node(n.localHost)
      node(n.remoteHost)
      const [a, b] = [`${n.localHost}|${n.localInt ?? ''}`, `${n.remoteHost}|${n.remoteInt ?? ''}`].sort()
      const id = `${a}--${b}`
      if (!edges.has(id)) edges.set(id, { data: { id, source: n.localHost, target: n.remoteHost, label: `${n.localInt ?? ''} – ${n.remoteInt ?? ''}` } })
    }
    // cytoscape adds an inline <style> (position: relative for its container) unless an element of
    // this id exists: the policy forbids inline style, and styles.css holds that rule instead.
    if (!document.getElementById(CYTOSCAPE_STYLESHEET)) {
      const marker = document.createElement('meta')
      marker.id = CYTOSCAPE_STYLESHEET
      document.head.append(marker)
    }
    const cy = cytoscape({ container: box.current, elements: [...nodes.values(), ...edges.values()], style: STYLE, layout: { name: 'cose', animate: false } })
    cy.on('tap', 'node', (e) => {
      const name = e.target.id() as string
      navigate(`/inventory/interfaces?snapshot=${encodeURIComponent(snapshot)}&filters=${encodeURIComponent(JSON.stringify({ hostname: ['eq', name] }))}`)
    })
    graph.current = cy
    return () => {
      cy.destroy()
      graph.current = null
    }
  }, [neighbors.data, devices.data, snapshot])

  const find = (): void => {
    const cy = graph.current
    if (!cy) return
    cy.$(':selected').unselect()
    const hit = cy.nodes().filter((n) => n.id().toLowerCase().includes(search.trim().toLowerCase()))
    hit.select()
    // the devices found with their neighbours in view: fitting a lone node would zoom it to fill the page
    if (hit.length > 0) cy.fit(hit.closedNeighborhood(), 60)
  }

  const exportPng = (): void => {
    const cy = graph.current
    if (!cy) return
    const blob = cy.png({ output: 'blob', full: true, bg: '#ffffff' })
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = `topology${site ? `-${site}` : ''}.png`
    document.body.append(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }

  const count = neighbors.data ? (neighbors.data.data as unknown as Neighbor[]).length : 0
  return (
    <>
      <h1>Topology</h1>
      <div className="toolbar">
        <label>
          Site
          <select value={site} onChange={(e) => navigate(withQuery(loc, { site: e.target.value || undefined }))}>
            <option value="">whole snapshot</option>
            {sites.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault()
            find()
          }}
        >
          <label>
            Find a device
            <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="hostname" />
          </label>
          <button type="submit">Find</button>
        </form>
        <button type="button" onClick={exportPng}>
          Export PNG
        </button>
      </div>
      {(neighbors.error ?? devices.error) && (
        <p role="alert" className="error">
          {(neighbors.error ?? devices.error)!.message}
        </p>
      )}
      <p className="muted" aria-live="polite">
        {neighbors.data ? `${count} neighbour entries. Filled: managed devices by type (circle router, square switch, diamond firewall, triangle access point); dashed: neighbours netinv does not manage. Select a device to open its interfaces.` : 'Loading…'}
      </p>
      <div ref={box} className="topology" role="img" aria-label={`Graph of the LLDP and CDP neighbours${site ? ` of ${site}` : ''}`} />
    </>
  )
}
