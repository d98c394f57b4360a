import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { postJson, send } from '../api'
import { navigate, useLocation, withQuery } from '../router'

interface Hop {
  kind: 'l3' | 'l2'
  device: { hostname: string; siteName: string | null }
  ingress: string | null
  egress: string | null
  route?: { network: string; protocol: string; nexthop: { ip: string | null } }
  arp?: { ip: string; mac: string }
  mac?: { mac: string; vlan: number | null; intName: string }
}
interface Branch {
  hops: Hop[]
  end: string
  detail: string
}
interface PathAnswer {
  paths: { src: string; dst: string; branches: Branch[] }
}

/** The body of `POST graphs` (and graphs/svg) for a unicast lookup, as the diagram clients send it. */
function lookup(snapshot: string, src: string, dst: string, protocol: string, ports: string): unknown {
  return {
    snapshot,
    parameters: {
      type: 'pathLookup',
      pathLookupType: 'unicast',
      startingPoint: src,
      destinationPoint: dst,
      protocol,
      ...(protocol === 'icmp' ? {} : { l4Options: { srcPorts: '1024-65535', dstPorts: ports || '80' } }),
    },
  }
}

const routers = (b: Branch): string => b.hops.map((h) => h.device.hostname).join(' → ')

function decidedBy(h: Hop): string {
  if (h.route) {
    // the neighbour entry of the next hop: ARP for IPv4, neighbour discovery (ND) for IPv6; out of a VLAN interface, the port the MAC table names
    const neighbour = h.arp ? `, ${h.arp.ip.includes(':') ? 'ND' : 'ARP'} ${h.arp.mac}` : ''
    return `route ${h.route.network} (${h.route.protocol})${h.route.nexthop.ip ? ` via ${h.route.nexthop.ip}` : ''}${neighbour}${h.mac ? ` on ${h.mac.intName}` : ''}`
  }
  if (h.mac) return `MAC ${h.mac.mac}${h.mac.vlan === null ? '' : ` in VLAN ${h.mac.vlan}`}`
  return ''
}

function Branches(props: { answer: PathAnswer; label: string }): ReactNode {
  const { branches } = props.answer.paths
  const delivered = branches.filter((b) => b.end === 'delivered').length
  return (
    <section aria-label={props.label} className="card">
      <h2>
        {props.label}: {props.answer.paths.src} → {props.answer.paths.dst}
      </h2>
      <p className={delivered === branches.length ? 'state-done' : 'state-error'}>
        {branches.length} {branches.length === 1 ? 'branch' : 'branches'}, {delivered} delivered
      </p>
      {branches.map((b, i) => (
        <div key={i} className="scroll">
          <h3>
            Branch {i + 1}: {routers(b)}
          </h3>
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Device</th>
                <th scope="col">Site</th>
                <th scope="col">In</th>
                <th scope="col">Out</th>
                <th scope="col">Decided by</th>
              </tr>
            </thead>
            <tbody>
              {b.hops.map((h, j) => (
                <tr key={j}>
                  <td className="num">{j + 1}</td>
                  <td>
                    {h.device.hostname} <span className="tag">{h.kind === 'l3' ? 'routed' : 'switched'}</span>
                  </td>
                  <td>{h.device.siteName ?? ''}</td>
                  <td>{h.ingress ?? ''}</td>
                  <td>{h.egress ?? ''}</td>
                  <td>{decidedBy(h)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className={b.end === 'delivered' ? 'state-done' : 'state-error'} data-end={b.end}>
            {b.end}: {b.detail}
          </p>
        </div>
      ))}
    </section>
  )
}

/** The drawing of the lookup (graphs/svg), put in the page as SVG elements: no script, no inline style. */
function Drawing(props: { body: unknown }): ReactNode {
  const box = useRef<HTMLDivElement>(null)
  const svg = useQuery({
    queryKey: ['path-svg', JSON.stringify(props.body)],
    queryFn: async () => (await send('POST', 'graphs/svg', props.body, { accept: 'image/svg+xml' })).text(),
  })
  useEffect(() => {
    const el = box.current
    if (!el || svg.data === undefined) return
    const doc = new DOMParser().parseFromString(svg.data, 'image/svg+xml')
    const root = doc.documentElement
    if (root.nodeName !== 'svg') return
    for (const s of root.querySelectorAll('script, foreignObject')) s.remove()
    el.replaceChildren(document.importNode(root, true))
  }, [svg.data])
  if (svg.error) return <p className="error">The drawing could not be made: {svg.error.message}</p>
  return <div ref={box} className="path-drawing scroll" role="img" aria-label="Drawing of the path, device by device" />
}

/** Path lookup: where a packet from A to B goes in a snapshot, both ways, drawn. */
export function Paths(): ReactNode {
  const loc = useLocation()
  const q = loc.query
  const asked = { snapshot: q.get('snapshot') ?? '$last', src: q.get('src') ?? '', dst: q.get('dst') ?? '', protocol: q.get('protocol') ?? 'tcp', ports: q.get('ports') ?? '443' }
  const [form, setForm] = useState(asked)
  const ready = asked.src !== '' && asked.dst !== ''
  const body = lookup(asked.snapshot, asked.src, asked.dst, asked.protocol, asked.ports)
  const back = lookup(asked.snapshot, asked.dst, asked.src, asked.protocol, asked.ports)
  const forward = useQuery({ queryKey: ['path', JSON.stringify(body)], queryFn: () => postJson<PathAnswer>('graphs', body), enabled: ready, retry: false })
  const reverse = useQuery({ queryKey: ['path', JSON.stringify(back)], queryFn: () => postJson<PathAnswer>('graphs', back), enabled: ready, retry: false })

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    navigate(withQuery(loc, { snapshot: form.snapshot === '$last' ? undefined : form.snapshot, src: form.src.trim(), dst: form.dst.trim(), protocol: form.protocol, ports: form.protocol === 'icmp' ? undefined : form.ports }))
  }
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value })
  const failure = forward.error ?? reverse.error
  // Asymmetry means something only when both ways arrive.
  const arrive = (a: PathAnswer | undefined) => a !== undefined && a.paths.branches.every((b) => b.end === 'delivered')
  const there = forward.data?.paths.branches.map(routers).sort().join(' | ')
  const returned = reverse.data?.paths.branches.map((b) => b.hops.map((h) => h.device.hostname).reverse().join(' → ')).sort().join(' | ')

  return (
    <>
      <h1>Path lookup</h1>
      <form className="inline" onSubmit={submit} aria-label="Path to look up">
        <label>
          Snapshot
          <input value={form.snapshot} onChange={set('snapshot')} className="narrow" />
        </label>
        <label>
          From (address)
          <input value={form.src} onChange={set('src')} placeholder="10.1.1.10 or 2001:db8:1::10" required />
        </label>
        <label>
          To (address)
          <input value={form.dst} onChange={set('dst')} placeholder="10.2.2.10 or 2001:db8:2::10" required />
        </label>
        <label>
          Protocol
          <select value={form.protocol} onChange={set('protocol')}>
            <option value="tcp">tcp</option>
            <option value="udp">udp</option>
            <option value="icmp">icmp</option>
          </select>
        </label>
        {form.protocol !== 'icmp' && (
          <label>
            Destination ports
            <input value={form.ports} onChange={set('ports')} className="narrow" />
          </label>
        )}
        <button type="submit" className="primary">
          Look up
        </button>
      </form>
      {!ready && <p className="muted">Give two addresses of the snapshot (hosts, interfaces), both IPv4 or both IPv6: the path is looked up both ways, hop by hop, from its routes, ARP and MAC tables.</p>}
      {failure && (
        <p role="alert" className="error">
          {failure.message}
        </p>
      )}
      {ready && (forward.isPending || reverse.isPending) && !failure && <p aria-live="polite">Looking up…</p>}
      {forward.data && reverse.data && (
        <>
          {arrive(forward.data) && arrive(reverse.data) && there !== returned && (
            <p className="notice" role="status">
              Asymmetric: the way back does not take the devices of the way there.
            </p>
          )}
          <Drawing body={body} />
          <Branches answer={forward.data} label="Way there" />
          <Branches answer={reverse.data} label="Way back" />
        </>
      )}
    </>
  )
}
