import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState, type ReactNode } from 'react'
import { getJson, postJson, send } from '../api'
import { Link } from '../App'
import { fromApi, parseFilters, toApi, type FilterObject } from '../filters'
import { navigate, useLocation, withQuery, type Location } from '../router'
import type { Snapshot, TableAnswer, TableDescription, TableSummary } from '../types'
import { DataGrid, type Sort } from './DataGrid'
import { FilterBuilder } from './FilterBuilder'
import { SnapshotPicker } from './Overview'

const PAGE_SIZES = [25, 50, 100, 500, 1000]

/** A table's group: the first part of its path; netinv's own records (audit, users, roles) under administration. */
function groupOf(t: TableSummary): string {
  return t.path.includes('/') ? (t.path.split('/')[0] ?? '') : 'administration'
}

/** Groups as network engineers write them: acronyms in capitals, words apart. */
const GROUP_NAMES: Record<string, string> = {
  aci: 'ACI', apic: 'APIC', dhcp: 'DHCP', fhrp: 'FHRP', mpls: 'MPLS', qos: 'QoS', sdn: 'SDN', sdwan: 'SD-WAN', vlan: 'VLAN', vrf: 'VRF', vxlan: 'VXLAN',
}
function groupName(group: string): string {
  return GROUP_NAMES[group] ?? group.charAt(0).toUpperCase() + group.slice(1).replace(/-/g, ' ')
}

function Catalog(props: { tables: TableSummary[]; current: string | undefined; loc: Location }): ReactNode {
  const [search, setSearch] = useState('')
  const needle = search.trim().toLowerCase()
  const shown = props.tables.filter((t) => needle === '' || `${t.title} ${t.path} ${t.description}`.toLowerCase().includes(needle))
  const groups = [...new Set(shown.map(groupOf))]
  const snapshot = props.loc.query.get('snapshot')
  return (
    <nav className="catalog" aria-label="Tables">
      <label>
        <span className="sr-only">Search tables</span>
        <input type="search" placeholder="Search tables…" aria-label="Search tables" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {groups.map((g) => (
        <details key={g} open={needle !== '' || props.tables.some((t) => t.webPath === props.current && groupOf(t) === g) || groups.length < 4}>
          <summary>{groupName(g)}</summary>
          <ul>
            {shown
              .filter((t) => groupOf(t) === g)
              .map((t) => (
                <li key={t.path}>
                  <Link to={snapshot ? `${t.webPath}?snapshot=${encodeURIComponent(snapshot)}` : t.webPath} aria-current={t.webPath === props.current ? 'page' : undefined}>
                    {t.title}
                  </Link>
                </li>
              ))}
          </ul>
        </details>
      ))}
      {groups.length === 0 && <p className="muted">No table matches.</p>}
    </nav>
  )
}

/** The request body of the current view (what the description panel shows and CSV sends). */
function viewBody(table: TableSummary, loc: Location, columns: string[], filters: FilterObject): Record<string, unknown> {
  const [sortColumn, sortOrder] = (loc.query.get('sort') ?? `${table.defaultSort.column}:${table.defaultSort.order}`).split(':')
  const start = Number(loc.query.get('start') ?? 0)
  const limit = Number(loc.query.get('limit') ?? 50)
  const compare = loc.query.get('compare')
  const body: Record<string, unknown> = {}
  if (table.snapshotScoped) body.snapshot = loc.query.get('snapshot') ?? '$last'
  body.columns = columns
  body.filters = filters
  body.pagination = { start, limit }
  body.sort = { column: sortColumn, order: sortOrder === 'desc' ? 'desc' : 'asc' }
  if (table.snapshotScoped && compare) body.compare = { snapshot: compare }
  else if (table.snapshotScoped) body.reports = table.webPath
  return body
}

export function Explorer(): ReactNode {
  const loc = useLocation()
  const tables = useQuery({ queryKey: ['tables'], queryFn: () => getJson<TableSummary[]>('tables'), staleTime: Infinity })
  const table = tables.data?.find((t) => t.webPath === loc.path)
  return (
    <div className="explorer">
      <Catalog tables={tables.data ?? []} current={table?.webPath} loc={loc} />
      <div className="view">
        {tables.error && (
          <p role="alert" className="error">
            {tables.error.message}
          </p>
        )}
        {tables.isSuccess && !table && (
          <>
            <h1>Nothing at {loc.path}</h1>
            <p>No page or table has this address. Choose a table from the list.</p>
          </>
        )}
        {table && <TableView key={table.path} table={table} loc={loc} />}
      </div>
    </div>
  )
}

function TableView(props: { table: TableSummary; loc: Location }): ReactNode {
  const { table, loc } = props
  const columns = (loc.query.get('columns') ?? '').split(',').filter((c) => table.columns.some((x) => x.name === c))
  const shownColumns = columns.length > 0 ? columns : table.columns.map((c) => c.name)
  const filtersText = loc.query.get('filters')
  const filters = useMemo(() => parseFilters(filtersText), [filtersText])
  const body = viewBody(table, loc, shownColumns, filters)
  const compare = loc.query.get('compare') ?? ''
  const describe = loc.query.get('describe') === '1'
  const [csvError, setCsvError] = useState<string | null>(null)

  const description = useQuery({ queryKey: ['description', table.path], queryFn: () => getJson<TableDescription>(`tables/${table.path}/description`), staleTime: Infinity })
  const snapshots = useQuery({ queryKey: ['snapshots'], queryFn: () => getJson<Snapshot[]>('snapshots'), enabled: table.snapshotScoped })
  const rows = useQuery({
    queryKey: ['rows', table.path, JSON.stringify(body)],
    queryFn: () => postJson<TableAnswer>(`tables/${table.path}`, body),
    placeholderData: keepPreviousData,
  })

  const go = (changes: Record<string, string | undefined>): void => navigate(withQuery(loc, changes))
  const sort = body.sort as Sort
  const meta = rows.data?._meta
  const start = (body.pagination as { start: number }).start
  const limit = (body.pagination as { limit: number }).limit
  // In compare mode `change` is a column too (added, removed, changed): it can be filtered.
  const describedColumns = compare
    ? [{ name: 'change', type: 'string', description: 'added, removed or changed', values: ['added', 'removed', 'changed'], operators: ['eq', 'neq'] }, ...(description.data?.columns ?? table.columns)]
    : (description.data?.columns ?? table.columns)

  const exportCsv = async (): Promise<void> => {
    setCsvError(null)
    const { pagination: _p, ...all } = body
    try {
      const r = await send('POST', `tables/${table.path}`, all, { accept: 'text/csv' })
      const blob = await r.blob()
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `${table.path.replaceAll('/', '-')}.csv`
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (err) {
      setCsvError(err instanceof Error ? err.message : String(err))
    }
  }

  return (
    <>
      <h1>{table.title}</h1>
      <p className="muted">{table.description}</p>
      <div className="toolbar">
        {table.snapshotScoped && (
          <>
            <SnapshotPicker label="Snapshot" value={loc.query.get('snapshot') ?? '$last'} snapshots={snapshots.data ?? []} onChange={(id) => go({ snapshot: id === '$last' ? undefined : id, start: undefined })} />
            <SnapshotPicker label="Compare with" allowNone value={compare} snapshots={snapshots.data ?? []} onChange={(id) => go({ compare: id || undefined, start: undefined })} />
          </>
        )}
        <details className="columns-chooser">
          <summary>Columns ({shownColumns.length})</summary>
          <fieldset>
            <legend className="sr-only">Columns shown</legend>
            {table.columns.map((c) => (
              <label key={c.name} className="check">
                <input
                  type="checkbox"
                  checked={shownColumns.includes(c.name)}
                  onChange={(e) => {
                    const next = e.target.checked ? table.columns.map((x) => x.name).filter((n) => n === c.name || shownColumns.includes(n)) : shownColumns.filter((n) => n !== c.name)
                    go({ columns: next.length === table.columns.length ? undefined : next.join(',') })
                  }}
                />
                {c.name}
              </label>
            ))}
          </fieldset>
        </details>
        <button type="button" onClick={() => void exportCsv()}>
          Export CSV
        </button>
        <button type="button" aria-expanded={describe} onClick={() => go({ describe: describe ? undefined : '1' })}>
          ? Table description
        </button>
      </div>
      {csvError && (
        <p role="alert" className="error">
          {csvError}
        </p>
      )}
      <FilterBuilder key={filtersText ?? ''} initial={fromApi(filters)} columns={describedColumns} colors={table.snapshotScoped && !compare} onApply={(g) => go({ filters: g.items.length === 0 ? undefined : JSON.stringify(toApi(g, describedColumns)), start: undefined })} />
      {describe && <DescriptionPanel table={table} description={description.data} body={body} />}
      {rows.error && (
        <p role="alert" className="error">
          {rows.error.message}
        </p>
      )}
      <div className="pager" aria-label="Pages">
        <span aria-live="polite" className="rows-count">
          {meta ? (meta.count === 0 ? 'No rows' : `Rows ${meta.start + 1}–${meta.start + meta.size} of ${meta.count}`) : rows.isFetching ? 'Loading…' : ''}
        </span>
        <button type="button" disabled={start === 0} onClick={() => go({ start: String(Math.max(0, start - limit)) })}>
          Previous
        </button>
        <button type="button" disabled={!meta || start + limit >= meta.count} onClick={() => go({ start: String(start + limit) })}>
          Next
        </button>
        <label>
          Rows per page
          <select value={limit} onChange={(e) => go({ limit: e.target.value, start: undefined })}>
            {PAGE_SIZES.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
      </div>
      <DataGrid
        rows={rows.data?.data ?? []}
        columns={shownColumns}
        compare={compare !== ''}
        sort={sort}
        busy={rows.isFetching}
        label={`Rows of ${table.path}`}
        onSort={(c) => go({ sort: `${c}:${sort.column === c && sort.order === 'asc' ? 'desc' : 'asc'}`, start: undefined })}
      />
    </>
  )
}

function DescriptionPanel(props: { table: TableSummary; description: TableDescription | undefined; body: Record<string, unknown> }): ReactNode {
  const json = JSON.stringify(props.body, null, 2)
  const curl = `curl -s '${window.location.origin}/api/tables/${props.table.path}' -H "X-API-Token: $KEY" -H 'Content-Type: application/json' -d '${JSON.stringify(props.body).replaceAll("'", "'\\''")}'`
  const [copied, setCopied] = useState('')
  const copy = (what: string, value: string): void => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(what),
      () => setCopied(''),
    )
  }
  return (
    <section className="description card" aria-labelledby="desc-h">
      <h2 id="desc-h">Table description: {props.table.path}</h2>
      <p>{props.table.description}</p>
      <p>
        <code>POST /api/tables/{props.table.path}</code> with this body gives the rows shown below. Every endpoint: <a href="/api/docs">the API explorer</a>.
      </p>
      <h3>Request body of this view</h3>
      <pre className="body" aria-label="Request body" tabIndex={0}>
        {json}
      </pre>
      <button type="button" onClick={() => copy('body', json)}>
        Copy body
      </button>
      <h3>curl</h3>
      <pre className="curl" aria-label="curl command" tabIndex={0}>
        {curl}
      </pre>
      <button type="button" onClick={() => copy('curl', curl)}>
        Copy curl line
      </button>
      {copied && <span role="status"> Copied the {copied}.</span>}
      <h3>Columns</h3>
      <div className="scroll">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Meaning</th>
              <th scope="col">Operators</th>
            </tr>
          </thead>
          <tbody>
            {(props.description?.columns ?? props.table.columns).map((c) => (
              <tr key={c.name}>
                <td>
                  <code>{c.name}</code>
                </td>
                <td>{c.type}</td>
                <td>{c.description}</td>
                <td>{c.operators?.join(' · ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
