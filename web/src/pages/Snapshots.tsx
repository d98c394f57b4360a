import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { ApiFailure, call, getJson, postJson, send } from '../api'
import { Link } from '../App'
import { navigate, useLocation, withQuery } from '../router'
import type { Job, Me, Snapshot, TableSummary } from '../types'

const PROFILES = ['lab', 'small', 'medium', 'large'] as const

function when(ms: number | null): string {
  return ms === null ? '' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
}

/** What a refusal means for a snapshot action, in words. */
function explainFailure(err: unknown, action: string): string {
  if (err instanceof ApiFailure && err.status === 409) {
    return `Cannot ${action}: ${err.message}. A locked snapshot must be unlocked first, and a snapshot with a job still running (discovery, load, unload, clone) waits for it to end.`
  }
  return `Cannot ${action}: ${err instanceof Error ? err.message : String(err)}`
}

export function Snapshots(props: { me: Me }): ReactNode {
  const loc = useLocation()
  const client = useQueryClient()
  const canWrite = props.me.scope.includes('write')
  const jobId = loc.query.get('job') ?? undefined
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [source, setSource] = useState<'simulator' | 'network'>('simulator')
  const jobDoneRef = useRef(false)

  const snapshots = useQuery({
    queryKey: ['snapshots'],
    queryFn: () => getJson<Snapshot[]>('snapshots'),
    refetchInterval: (q) => ((q.state.data ?? []).some((s) => s.loading || s.status === 'running') || (jobId !== undefined && !jobDoneRef.current) ? 1500 : false),
  })
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => getJson<Job>(`jobs/${jobId}`),
    enabled: jobId !== undefined,
    refetchInterval: (q) => (q.state.data?.isDone ? false : 1000),
  })
  // The list follows the job: refreshed while it runs and once more when it ends.
  const jobDone = job.data?.isDone === true
  jobDoneRef.current = jobDone
  useEffect(() => {
    void client.invalidateQueries({ queryKey: ['snapshots'] })
  }, [jobDone, client])

  const act = async (label: string, f: () => Promise<unknown>): Promise<void> => {
    setBusy(true)
    setMessage(null)
    try {
      await f()
    } catch (err) {
      setMessage(explainFailure(err, label))
    } finally {
      setBusy(false)
      await client.invalidateQueries({ queryKey: ['snapshots'] })
    }
  }

  const start = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const snapshotName = String(form.get('name') ?? '') || undefined
    const body = source === 'network' ? { source, snapshotName } : { source, snapshotName, profile: String(form.get('profile')), seed: Number(form.get('seed') ?? 1) }
    await act('start the discovery', async () => {
      const r = await postJson<{ id: string; jobId: string }>('snapshots', body)
      navigate(withQuery(loc, { job: r.jobId }))
    })
  }

  const rename = (s: Snapshot, field: 'name' | 'note'): void => {
    const value = window.prompt(field === 'name' ? `New name of "${s.name ?? s.id}" (empty: none)` : `Note on "${s.name ?? s.id}" (empty: none)`, (field === 'name' ? s.name : s.note) ?? '')
    if (value === null) return
    void act(`change the ${field}`, () => call('PATCH', `snapshots/${s.id}`, { [field]: value === '' ? null : value }))
  }

  // The file streams from the API to the disk (no copy in the page): a link the browser follows,
  // once the session is known to be fresh (users/me renews it when it is about to end).
  const download = (s: Snapshot): void => {
    void act(`download "${s.name ?? s.id}"`, async () => {
      await getJson('users/me')
      const a = document.createElement('a')
      a.href = `/api/snapshots/${encodeURIComponent(s.id)}/download`
      a.download = ''
      document.body.append(a)
      a.click()
      a.remove()
    })
  }

  const upload = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const formEl = e.currentTarget
    const file = new FormData(formEl).get('file')
    if (!(file instanceof File) || file.size === 0) {
      setMessage('Cannot upload: choose a snapshot file (.ndjson, as Download gives) first.')
      return
    }
    await act(`upload "${file.name}"`, async () => {
      const r = (await (await send('POST', 'snapshots/upload', file, { contentType: 'application/x-ndjson' })).json()) as { id: string; jobId: string }
      formEl.reset()
      navigate(withQuery(loc, { job: r.jobId }))
    })
  }

  const remove = (s: Snapshot): void => {
    if (!window.confirm(`Delete snapshot "${s.name ?? s.id}" and all its rows?`)) return
    void act(`delete "${s.name ?? s.id}"`, () => call('DELETE', `snapshots/${s.id}`))
  }

  return (
    <>
      <h1>Snapshots</h1>
      {canWrite && (
        <section aria-labelledby="discover-h" className="card">
          <h2 id="discover-h">Start a discovery or upload a snapshot</h2>
          <form className="inline" onSubmit={(e) => void start(e)}>
            <label>
              Name
              <input name="name" placeholder="e.g. nightly" />
            </label>
            <label>
              Source
              <select value={source} onChange={(e) => setSource(e.target.value as 'simulator' | 'network')}>
                <option value="simulator">simulator</option>
                <option value="network">network (the stored seeds and SNMP credentials)</option>
              </select>
            </label>
            {source === 'simulator' ? (
              <>
                <label>
                  Simulated network
                  <select name="profile" defaultValue="lab">
                    {PROFILES.map((p) => (
                      <option key={p}>{p}</option>
                    ))}
                  </select>
                </label>
                <label>
                  Seed
                  <input name="seed" type="number" min={0} defaultValue={1} className="narrow" />
                </label>
              </>
            ) : (
              <p className="muted">Seeds, networks and credentials: Administration → Discovery settings.</p>
            )}
            <button type="submit" className="primary" disabled={busy}>
              Discover
            </button>
          </form>
          <form className="inline upload" aria-label="Upload a snapshot" onSubmit={(e) => void upload(e)}>
            <label>
              Snapshot file
              <input type="file" name="file" accept=".ndjson,application/x-ndjson" />
            </label>
            <button type="submit" disabled={busy}>
              Upload
            </button>
          </form>
          {jobId && job.data && (
            <div className="job" aria-live="polite">
              <progress max={1} value={job.data.progress ?? 0} aria-label="Discovery progress" />
              <span className="job-state" data-status={job.data.status}>
                {job.data.status}: {job.data.message ?? ''} ({Math.round((job.data.progress ?? 0) * 100)} %)
              </span>
              {!job.data.isDone && (
                <button type="button" onClick={() => void act('stop the discovery', () => postJson(`jobs/${jobId}/stop`, {}))}>
                  Stop
                </button>
              )}
            </div>
          )}
        </section>
      )}
      {message && (
        <p role="alert" className="error">
          {message}
        </p>
      )}
      {snapshots.error && (
        <p role="alert" className="error">
          {snapshots.error.message}
        </p>
      )}
      <div className="scroll">
        <table className="grid">
          <caption className="sr-only">Snapshots, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Devices</th>
              <th scope="col">Interfaces</th>
              <th scope="col">Started</th>
              <th scope="col">Source</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(snapshots.data ?? []).map((s) => (
              <tr key={s.id} data-snapshot={s.id}>
                <td>
                  <Link to={`/overview?snapshot=${s.id}`}>{s.name ?? s.id}</Link>
                  {s.locked && <span className="tag">locked</span>}
                  {s.note && <div className="muted note">{s.note}</div>}
                </td>
                <td>
                  <span className={`state state-${s.status}`}>{s.loading ? 'loading' : `${s.state}, ${s.status}`}</span>
                </td>
                <td className="num">{s.totalDevCount}</td>
                <td className="num">{s.interfaceCount}</td>
                <td>{when(s.tsStart)}</td>
                <td>{s.origin}</td>
                <td className="actions">
                  {s.state === 'loaded' && (
                    <Link to={withQuery(loc, { changes: s.id })} className="button-link">
                      Changes
                    </Link>
                  )}
                  {s.status === 'done' && (
                    <button type="button" disabled={busy} onClick={() => download(s)} aria-label={`Download ${s.name ?? s.id}`}>
                      Download
                    </button>
                  )}
                  {canWrite && (
                    <>
                      <button type="button" disabled={busy} onClick={() => void act(s.locked ? 'unlock' : 'lock', () => postJson(`snapshots/${s.id}/${s.locked ? 'unlock' : 'lock'}`, {}))}>
                        {s.locked ? 'Unlock' : 'Lock'}
                      </button>
                      <button type="button" disabled={busy} onClick={() => void act(s.state === 'loaded' ? 'unload' : 'load', () => postJson(`snapshots/${s.id}/${s.state === 'loaded' ? 'unload' : 'load'}`, {}))}>
                        {s.state === 'loaded' ? 'Unload' : 'Load'}
                      </button>
                      <button type="button" disabled={busy} onClick={() => rename(s, 'name')} aria-label={`Rename ${s.name ?? s.id}`}>
                        Rename
                      </button>
                      <button type="button" disabled={busy} onClick={() => rename(s, 'note')} aria-label={`Note on ${s.name ?? s.id}`}>
                        Note
                      </button>
                      <button type="button" disabled={busy} onClick={() => void act('clone', () => postJson(`snapshots/${s.id}/clone`, {}))} aria-label={`Clone ${s.name ?? s.id}`}>
                        Clone
                      </button>
                      <button type="button" className="danger" disabled={busy} onClick={() => remove(s)} aria-label={`Delete ${s.name ?? s.id}`}>
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {snapshots.data?.length === 0 && <p>No snapshot yet: start a discovery above.</p>}
      {loc.query.get('changes') && <Changes id={loc.query.get('changes')!} snapshots={snapshots.data ?? []} />}
    </>
  )
}

interface ChangeCounts {
  tables: Array<{ table: string; added: number; removed: number; changed: number }>
}

/** What changed per table since the previous snapshot of the same network, each a link to the rows. */
function Changes(props: { id: string; snapshots: Snapshot[] }): ReactNode {
  const changes = useQuery({ queryKey: ['changes', props.id], queryFn: () => getJson<ChangeCounts>(`snapshots/${props.id}/changes`) })
  const tables = useQuery({ queryKey: ['tables'], queryFn: () => getJson<TableSummary[]>('tables'), staleTime: Infinity })
  const snapshot = props.snapshots.find((s) => s.id === props.id)
  const changed = (changes.data?.tables ?? []).filter((c) => c.added + c.removed + c.changed > 0)
  return (
    <section className="card" aria-labelledby="changes-h">
      <h2 id="changes-h">Changes in {snapshot?.name ?? props.id} since the previous snapshot of its network</h2>
      {changes.error && <p role="alert">{changes.error.message}</p>}
      {changes.isSuccess && changed.length === 0 && <p>Nothing changed.</p>}
      {changed.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col" className="num">Added</th>
              <th scope="col" className="num">Removed</th>
              <th scope="col" className="num">Changed</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((c) => {
              const webPath = tables.data?.find((t) => t.path === c.table)?.webPath
              return (
                <tr key={c.table}>
                  <td>{webPath ? <Link to={`${webPath}?snapshot=${props.id}&compare=%24prev`}>{c.table}</Link> : c.table}</td>
                  <td className="num">{c.added}</td>
                  <td className="num">{c.removed}</td>
                  <td className="num">{c.changed}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </section>
  )
}
