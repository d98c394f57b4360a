import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { getJson } from '../api'
import { Link } from '../App'
import { navigate, useLocation, withQuery } from '../router'
import { SEVERITIES, type Report, type Snapshot } from '../types'

export function SnapshotPicker(props: { value: string; snapshots: Snapshot[]; label: string; onChange: (id: string) => void; allowNone?: boolean }): ReactNode {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.allowNone && <option value="">none</option>}
        {props.allowNone && <option value="$prev">previous of the same network ($prev)</option>}
        <option value="$last">latest ($last)</option>
        {props.snapshots.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name ?? s.id} ({s.state})
          </option>
        ))}
      </select>
    </label>
  )
}

export function Overview(): ReactNode {
  const loc = useLocation()
  const chosen = loc.query.get('snapshot') ?? '$last'
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: () => getJson<Snapshot[]>('snapshots') })
  const loaded = (snapshots.data ?? []).filter((s) => s.state === 'loaded' && s.status === 'done')
  const snapshot = chosen === '$last' ? loaded[0] : snapshots.data?.find((s) => s.id === chosen)
  const reports = useQuery({
    queryKey: ['reports', snapshot?.id],
    queryFn: () => getJson<Report[]>(`reports?snapshot=${encodeURIComponent(snapshot!.id)}`),
    enabled: snapshot !== undefined && snapshot.state === 'loaded',
  })

  return (
    <>
      <h1>Overview</h1>
      <div className="toolbar">
        <SnapshotPicker label="Snapshot" value={chosen} snapshots={snapshots.data ?? []} onChange={(id) => navigate(withQuery(loc, { snapshot: id === '$last' ? undefined : id }))} />
      </div>
      {snapshots.isSuccess && snapshot === undefined && (
        <p>
          No loaded snapshot yet. <Link to="/snapshots">Start a discovery</Link>.
        </p>
      )}
      {snapshot && (
        <>
          <section aria-label="Counts" className="counts">
            <div className="count">
              <span className="figure">{snapshot.totalDevCount}</span>
              <Link to={`/inventory/devices?snapshot=${snapshot.id}`}>devices</Link>
            </div>
            <div className="count">
              <span className="figure">{snapshot.sites?.length ?? 0}</span>
              <Link to={`/inventory/sites?snapshot=${snapshot.id}`}>sites</Link>
            </div>
            <div className="count">
              <span className="figure">{snapshot.interfaceCount}</span>
              <Link to={`/inventory/interfaces?snapshot=${snapshot.id}`}>interfaces</Link>
            </div>
          </section>
          <h2>Intent rules</h2>
          {snapshot.state !== 'loaded' && <p>Load the snapshot to see its intent rules.</p>}
          {reports.error && (
            <p role="alert" className="error">
              {reports.error.message}
            </p>
          )}
          <div className="scroll">
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">Table</th>
                  {SEVERITIES.map((s) => (
                    <th scope="col" key={s.value} className="num">
                      {s.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {(reports.data ?? []).map((r) => (
                  <tr key={r.id}>
                    <td title={r.descriptions?.general}>{r.name}</td>
                    <td>
                      <Link to={`${r.webEndpoint}?snapshot=${snapshot.id}`}>{r.webEndpoint}</Link>
                    </td>
                    {SEVERITIES.map((s) => {
                      const n = r.result?.checks[String(s.value)]
                      if (n === undefined || n === '0') return <td key={s.value} className="num muted">{n ?? ''}</td>
                      const filters = JSON.stringify({ [r.column]: ['color', 'eq', s.value] })
                      return (
                        <td key={s.value} className="num">
                          <Link className={`badge sev-${s.value}`} to={`${r.webEndpoint}?snapshot=${snapshot.id}&filters=${encodeURIComponent(filters)}`}>
                            {n}
                          </Link>
                        </td>
                      )
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  )
}
