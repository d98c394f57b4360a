import { useQuery } from '@tanstack/react-query'
import cytoscape, { type Core } from 'cytoscape'
import fcose from 'cytoscape-fcose'
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { postJson } from '../api'
import { navigate, useLocation, withQuery } from '../router'
import type { TableAnswer } from '../types'
import { graphElements, sitesOf, type Device, type Neighbor } from './topology-graph'
import { topologySvg } from './topology-svg'

cytoscape.use(fcose)

const CYTOSCAPE_STYLESHEET = '__________cytoscape_stylesheet'

const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 9, 'background-color': '#1f4e79', color: '#1b1f24', width: 18, height: 18, 'text-valign': 'bottom', 'text-margin-y': 3 } },
  { selector: 'node.router', style: { shape: 'ellipse', 'background-color': '#7a1f5c' } },
  { selector: 'node.switch', style: { shape: 'round-rectangle', 'background-color': '#1f4e79' } },
  { selector: 'node.fw', style: { shape: 'diamond', 'background-color': '#a40e26' } },
  { selector: 'node.ap', style: { shape: 'triangle', 'background-color': '#0b5d1e' } },
  { selector: 'node.unmanaged', style: { 'background-color': '#fff', 'border-width': 2, 'border-color': '#8c959f', 'border-style': 'dashed' } },
  { selector: 'node.site', style: { shape: 'round-rectangle', 'background-color': '#eef2f6', 'background-opacity': 0.6, 'border-width': 1, 'border-color': '#8c959f', 'border-style': 'dashed', 'text-valign': 'top', 'text-halign': 'center', 'font-size': 10, 'font-weight': 'bold', padding: '12px' } },
  { selector: 'node.site.collapsed', style: { 'background-color': '#d9e4ef', 'background-opacity': 1, 'border-style': 'solid', 'border-width': 2, 'border-color': '#1f4e79', width: 44, height: 30, 'text-valign': 'bottom' } },
  { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#f59e0b' } },
  { selector: 'edge', style: { width: 1.5, 'line-color': '#8c959f', label: 'data(label)', 'font-size': 6, 'text-rotation': 'autorotate', color: '#57606a', 'curve-style': 'bezier' } },
]

/** Collapsed sites in the address: names joined by commas, each URI-encoded (a name may hold a comma). */
function parseCollapsed(value: string | null): Set<string> {
  return new Set((value ?? '').split(',').filter((s) => s !== '').map((s) => decodeURIComponent(s)))
}
function formatCollapsed(sites: Iterable<string>): string | undefined {
  const list = [...sites].sort().map((s) => encodeURIComponent(s))
  return list.length === 0 ? undefined : list.join(',')
}

function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
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


  const collapsedText = loc.query.get('collapsed')
  const collapsed = useMemo(() => parseCollapsed(collapsedText), [collapsedText])
  const rows = (neighbors.data?.data ?? []) as unknown as Neighbor[]
  const deviceRows = (devices.data?.data ?? []) as unknown as Device[]
  const drawnSites = neighbors.data && devices.data ? sitesOf(rows, deviceRows) : []
  const toggle = (siteName: string): void => {
    const next = new Set(collapsed)
    if (!next.delete(siteName)) next.add(siteName)
    navigate(withQuery(loc, { collapsed: formatCollapsed(next) }))
  }
  // read by the tap handler of the graph, which outlives renders
  const toggleRef = useRef(toggle)
  toggleRef.current = toggle
  const [layoutMs, setLayoutMs] = useState<number | null>(null)

  useEffect(() => {
    if (!box.current || !neighbors.data || !devices.data) return
    const elements = graphElements(neighbors.data.data as unknown as Neighbor[], devices.data.data as unknown as Device[], collapsed)
    // cytoscape adds an inline <style> (position: relative for its container) unless an element of
    // this id exists: the policy forbids inline style, and styles.css holds that rule instead.
    if (!document.getElementById(CYTOSCAPE_STYLESHEET)) {
      const marker = document.createElement('meta')
      marker.id = CYTOSCAPE_STYLESHEET
      document.head.append(marker)
    }
    setLayoutMs(null)
    const started = performance.now()
    // fcose: a spectral start refined by a force-directed pass; sites are compound nodes it keeps together
    // maxZoom: finding a device fits it and its neighbours, which fcose keeps close: not to fill the page
    const cy = cytoscape({ container: box.current, elements, style: STYLE, maxZoom: 2.5, layout: { name: 'fcose', animate: false, randomize: true, quality: 'default', nodeDimensionsIncludeLabels: false, fit: true, padding: 20 } as cytoscape.LayoutOptions })
    setLayoutMs(performance.now() - started)
    cy.on('tap', 'node', (e) => {
      const n = e.target as cytoscape.NodeSingular
      const siteName = n.data('site') as string | undefined
      if (n.hasClass('site') && siteName !== undefined) {
        toggleRef.current(siteName)
        return
      }
      const name = n.data('host') as string
      navigate(`/inventory/interfaces?snapshot=${encodeURIComponent(snapshot)}&filters=${encodeURIComponent(JSON.stringify({ hostname: ['eq', name] }))}`)
    })
    graph.current = cy
    return () => {
      cy.destroy()
      graph.current = null
    }
  }, [neighbors.data, devices.data, snapshot, collapsed])

  const find = (): void => {
    const cy = graph.current
    if (!cy) return
    cy.$(':selected').unselect()
    const needle = search.trim().toLowerCase()
    const hit = cy.nodes('[host]').filter((n) => String(n.data('host')).toLowerCase().includes(needle))
    hit.select()
    // the devices found with their neighbours in view: fitting a lone node would zoom it to fill the page
    if (hit.length > 0) cy.fit(hit.closedNeighborhood(), 60)
  }

  const fileName = `topology${site ? `-${site}` : ''}`
  const exportPng = (): void => {
    const cy = graph.current
    if (cy) saveFile(cy.png({ output: 'blob', full: true, bg: '#ffffff' }), `${fileName}.png`)
  }
  const exportSvg = (): void => {
    const cy = graph.current
    if (cy) saveFile(new Blob([topologySvg(cy, `LLDP and CDP neighbours${site ? ` of ${site}` : ''}`)], { type: 'image/svg+xml' }), `${fileName}.svg`)
  }

  const count = rows.length
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
        <details className="columns-chooser sites-chooser">
          <summary>Collapsed sites ({collapsed.size})</summary>
          <fieldset>
            <legend className="sr-only">Sites drawn as one node</legend>
            <div className="actions">
              <button type="button" onClick={() => navigate(withQuery(loc, { collapsed: formatCollapsed(drawnSites) }))}>
                Collapse all
              </button>
              <button type="button" onClick={() => navigate(withQuery(loc, { collapsed: undefined }))}>
                Expand all
              </button>
            </div>
            {drawnSites.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" checked={collapsed.has(s)} onChange={() => toggle(s)} />
                {s}
              </label>
            ))}
          </fieldset>
        </details>
        <button type="button" onClick={exportPng}>
          Export PNG
        </button>
        <button type="button" onClick={exportSvg}>
          Export SVG
        </button>
      </div>
      {(neighbors.error ?? devices.error) && (
        <p role="alert" className="error">
          {(neighbors.error ?? devices.error)!.message}
        </p>
      )}
      <p className="muted" aria-live="polite">
        {neighbors.data ? `${count} neighbour entries. Filled: managed devices by type (circle router, square switch, diamond firewall, triangle access point); dashed: neighbours netinv does not manage. Sites are the dashed boxes: select one, or use Collapsed sites, to draw it as one node. Select a device to open its interfaces.` : 'Loading…'}
      </p>
      <div ref={box} className="topology" aria-busy={layoutMs === null} data-layout-ms={layoutMs === null ? undefined : layoutMs.toFixed(0)} role="img" aria-label={`Graph of the LLDP and CDP neighbours${site ? ` of ${site}` : ''}`} />
    </>
  )
}
