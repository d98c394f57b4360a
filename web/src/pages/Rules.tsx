import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { call, getJson } from '../api'
import { Link } from '../App'
import { emptyGroup, fromApi, toApi, type Group } from '../filters'
import { navigate, useLocation, withQuery } from '../router'
import { SEVERITIES, type Me, type Report, type Snapshot, type TableSummary } from '../types'
import { FilterBuilder } from './FilterBuilder'
import { SnapshotPicker } from './Overview'

const TABLE_PREFIX = '/v1/tables/'

/** The intent rules (`/reports`): their counts per severity on a snapshot; custom rules made, changed and deleted. */
export function Rules(props: { me: Me }): ReactNode {
  const loc = useLocation()
  const client = useQueryClient()
  const chosen = loc.query.get('snapshot') ?? '$last'
  const canChange = props.me.scope.includes('settings')
  const [editing, setEditing] = useState<Report | 'new' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: () => getJson<Snapshot[]>('snapshots') })
  const loaded = (snapshots.data ?? []).filter((s) => s.state === 'loaded' && s.status === 'done')
  const snapshot = chosen === '$last' ? loaded[0] : snapshots.data?.find((s) => s.id === chosen)
  const reports = useQuery({
    queryKey: ['reports', snapshot?.id],
    queryFn: () => getJson<Report[]>(snapshot?.state === 'loaded' ? `reports?snapshot=${encodeURIComponent(snapshot.id)}` : 'reports'),
    enabled: snapshots.isSuccess,
  })

  const remove = async (r: Report): Promise<void> => {
    if (!window.confirm(`Delete the rule "${r.name}"?`)) return
    setError(null)
    try {
      await call('DELETE', `reports/${encodeURIComponent(r.id)}`)
      await client.invalidateQueries({ queryKey: ['reports'] })
    } catch (err) {
      setError(`Cannot delete "${r.name}": ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  return (
    <>
      <h1>Intent rules</h1>
      <div className="toolbar">
        <SnapshotPicker label="Snapshot" value={chosen} snapshots={snapshots.data ?? []} onChange={(id) => navigate(withQuery(loc, { snapshot: id === '$last' ? undefined : id }))} />
        {canChange && editing === null && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New rule
          </button>
        )}
      </div>
      {!canChange && <p className="muted">Custom rules are made and changed by users with the scope "settings".</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {reports.error && (
        <p role="alert" className="error">
          {reports.error.message}
        </p>
      )}
      {editing !== null && (
        <RuleEditor
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          onDone={() => {
            setEditing(null)
            void client.invalidateQueries({ queryKey: ['reports'] })
          }}
        />
      )}
      <div className="scroll">
        <table className="grid rules">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Table</th>
              <th scope="col">Column</th>
              {SEVERITIES.map((s) => (
                <th scope="col" key={s.value} className="num">
                  {s.name}
                </th>
              ))}
              {canChange && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {(reports.data ?? []).map((r) => (
              <tr key={r.id} data-rule={r.id}>
                <td title={r.descriptions?.general}>
                  {r.name}
                  {r.custom && <span className="tag">custom</span>}
                </td>
                <td>{snapshot ? <Link to={`${r.webEndpoint}?snapshot=${snapshot.id}`}>{r.webEndpoint}</Link> : r.webEndpoint}</td>
                <td>{r.column}</td>
                {SEVERITIES.map((s) => {
                  const n = r.result?.checks[String(s.value)]
                  if (n === undefined || n === '0' || !snapshot) return <td key={s.value} className="num muted">{n ?? ''}</td>
                  const filters = JSON.stringify({ [r.column]: ['color', 'eq', s.value] })
                  return (
                    <td key={s.value} className="num">
                      <Link className={`badge sev-${s.value}`} to={`${r.webEndpoint}?snapshot=${snapshot.id}&filters=${encodeURIComponent(filters)}`}>
                        {n}
                      </Link>
                    </td>
                  )
                })}
                {canChange && (
                  <td className="actions">
                    {r.custom && (
                      <>
                        <button type="button" onClick={() => setEditing(r)} aria-label={`Edit ${r.name}`}>
                          Edit
                        </button>
                        <button type="button" className="danger" onClick={() => void remove(r)} aria-label={`Delete ${r.name}`}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

/** A custom rule's form: name, table, column, and per severity a filter built with the table's builder. */
function RuleEditor(props: { rule: Report | null; onDone: () => void }): ReactNode {
  const { rule } = props
  const tables = useQuery({ queryKey: ['tables'], queryFn: () => getJson<TableSummary[]>('tables'), staleTime: Infinity })
  const scoped = (tables.data ?? []).filter((t) => t.snapshotScoped)
  const [name, setName] = useState(rule?.name ?? '')
  const [path, setPath] = useState(rule?.apiEndpoint.startsWith(TABLE_PREFIX) ? rule.apiEndpoint.slice(TABLE_PREFIX.length) : 'inventory/devices')
  const table = scoped.find((t) => t.path === path)
  const [column, setColumn] = useState(rule?.column ?? '')
  const [description, setDescription] = useState(rule?.descriptions?.general ?? '')
  const [checks, setChecks] = useState<Record<string, Group | null>>(() => Object.fromEntries(SEVERITIES.map((s) => [String(s.value), rule?.checks[String(s.value)] ? fromApi(rule.checks[String(s.value)]) : null])))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const columns = table?.columns ?? []
  const chosenColumn = column || (columns.find((c) => c.name !== 'id')?.name ?? '')

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    const body = {
      name,
      apiEndpoint: `${TABLE_PREFIX}${path}`,
      column: chosenColumn,
      checks: Object.fromEntries(Object.entries(checks).flatMap(([sev, g]) => (g ? [[sev, toApi(g, columns)]] : []))),
      descriptions: { general: description },
    }
    try {
      if (rule) await call('PATCH', `reports/${encodeURIComponent(rule.id)}`, body)
      else await call('POST', 'reports', body)
      props.onDone()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="card rule-editor" aria-label={rule ? `Edit rule ${rule.name}` : 'New rule'} onSubmit={(e) => void save(e)}>
      <h2>{rule ? `Edit rule ${rule.name}` : 'New rule'}</h2>
      <div className="toolbar">
        <label>
          Rule name
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Table
          <select value={path} onChange={(e) => (setPath(e.target.value), setColumn(''), setChecks(Object.fromEntries(SEVERITIES.map((s) => [String(s.value), null]))))}>
            {scoped.map((t) => (
              <option key={t.path} value={t.path}>
                {t.path}
              </option>
            ))}
          </select>
        </label>
        <label>
          Coloured column
          <select value={chosenColumn} onChange={(e) => setColumn(e.target.value)}>
            {columns.map((c) => (
              <option key={c.name}>{c.name}</option>
            ))}
          </select>
        </label>
        <label>
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
      </div>
      {table &&
        [...SEVERITIES].reverse().map((s) => {
          const key = String(s.value)
          const group = checks[key] ?? null
          return (
            <div key={`${path}-${key}`} className={`sev-check sev-border-${s.value}`}>
              <label className="check">
                <input type="checkbox" checked={group !== null} onChange={(e) => setChecks({ ...checks, [key]: e.target.checked ? emptyGroup() : null })} />
                <span className={`badge sev-${s.value}`}>{s.name}</span> when the row matches
              </label>
              {group && <FilterBuilder initial={group} columns={columns} colors={false} label={`${s.name} check`} onChange={(g) => setChecks((c) => ({ ...c, [key]: g }))} />}
            </div>
          )
        })}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Save rule
        </button>
        <button type="button" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
