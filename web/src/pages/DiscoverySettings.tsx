import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { call, getJson, postJson } from '../api'

interface NetworkSettings {
  include: string[]
  exclude: string[]
  schedule?: { enabled: boolean; intervalMinutes: number }
}
interface Credential {
  id: string
  name: string | null
  position: number
  networks: string[]
  version: '2c' | '3'
  community?: string
  user?: string
  authProtocol?: string | null
  authPassword?: string | null
  privProtocol?: string | null
  privPassword?: string | null
}

const lines = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')

/** A list of strings from an answer, [] when it holds none (an answer of another shape is not trusted). */
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** Discovery settings (scope settings): seeds, include/exclude networks, SNMP credentials (write-only secrets). */
export function DiscoverySettings(): ReactNode {
  const client = useQueryClient()
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => getJson<NetworkSettings>('settings') })
  const seeds = useQuery({ queryKey: ['settings/seed'], queryFn: () => getJson<string[]>('settings/seed') })
  const [saved, setSaved] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const save = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setError(null)
    setSaved(null)
    try {
      await call('PUT', 'settings/seed', lines(String(form.get('seeds') ?? '')))
      await call('PATCH', 'settings', { include: lines(String(form.get('include') ?? '')), exclude: lines(String(form.get('exclude') ?? '')) })
      setSaved('Saved.')
    } catch (err) {
      setError(`Not saved: ${message(err)}`)
    } finally {
      await client.invalidateQueries({ queryKey: ['settings'] })
      await client.invalidateQueries({ queryKey: ['settings/seed'] })
    }
  }

  return (
    <section aria-labelledby="discovery-h">
      <h2 id="discovery-h">Discovery settings</h2>
      {settings.data && seeds.data && (
        <form className="card settings" aria-label="Seeds and networks" onSubmit={(e) => void save(e)}>
          <p className="muted">One address or network a line. Network discovery starts from the seeds and stays inside the include networks (none: no bound), never entering the exclude networks.</p>
          <div className="toolbar">
            <label>
              Seeds
              <textarea name="seeds" rows={4} defaultValue={strings(seeds.data).join('\n')} />
            </label>
            <label>
              Include networks
              <textarea name="include" rows={4} defaultValue={strings(settings.data.include).join('\n')} />
            </label>
            <label>
              Exclude networks
              <textarea name="exclude" rows={4} defaultValue={strings(settings.data.exclude).join('\n')} />
            </label>
          </div>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {saved && <p role="status">{saved}</p>}
          <button type="submit" className="primary">
            Save seeds and networks
          </button>
        </form>
      )}
      {(settings.error ?? seeds.error) && (
        <p role="alert" className="error">
          {(settings.error ?? seeds.error)?.message}
        </p>
      )}
      {settings.data && <Schedule schedule={settings.data.schedule ?? { enabled: false, intervalMinutes: 1440 }} />}
      <SnmpCredentials />
    </section>
  )
}

/** When network discovery runs on its own: on or off, and the minutes between two runs. */
function Schedule(props: { schedule: { enabled: boolean; intervalMinutes: number } }): ReactNode {
  const client = useQueryClient()
  const [saved, setSaved] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const save = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setError(null)
    setSaved(null)
    try {
      await call('PATCH', 'settings', { schedule: { enabled: form.get('enabled') === 'on', intervalMinutes: Number(form.get('interval')) } })
      setSaved('Saved.')
      await client.invalidateQueries({ queryKey: ['settings'] })
    } catch (err) {
      setError(`Not saved: ${message(err)}`)
    }
  }

  return (
    <form className="card settings" aria-label="Schedule" onSubmit={(e) => void save(e)}>
      <h3>Schedule</h3>
      <p className="muted">A network discovery starts on its own every interval, from the seeds with the SNMP credentials below (none runs while another does, or without seeds and credentials).</p>
      <div className="toolbar">
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={props.schedule.enabled} />
          Discover on a schedule
        </label>
        <label>
          Every (minutes, 5 to 10080)
          <input name="interval" type="number" min={5} max={10080} required defaultValue={props.schedule.intervalMinutes} className="narrow" />
        </label>
        <button type="submit" className="primary">
          Save schedule
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {saved && <p role="status">{saved}</p>}
    </form>
  )
}

function SnmpCredentials(): ReactNode {
  const client = useQueryClient()
  const list = useQuery({ queryKey: ['settings/snmp'], queryFn: () => getJson<Credential[]>('settings/snmp') })
  const [version, setVersion] = useState<'2c' | '3'>('2c')
  const [error, setError] = useState<string | null>(null)

  const add = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const formEl = e.currentTarget
    const form = new FormData(formEl)
    const text = (k: string): string => String(form.get(k) ?? '')
    const orNull = (k: string): string | null => (text(k) === '' ? null : text(k))
    const body =
      version === '2c'
        ? { name: text('name'), version, community: text('community'), networks: lines(text('networks')) }
        : { name: text('name'), version, user: text('user'), authProtocol: orNull('authProtocol'), authPassword: orNull('authPassword'), privProtocol: orNull('privProtocol'), privPassword: orNull('privPassword'), networks: lines(text('networks')) }
    setError(null)
    try {
      await postJson('settings/snmp', body)
      formEl.reset()
    } catch (err) {
      setError(`Not added: ${message(err)}`)
    } finally {
      await client.invalidateQueries({ queryKey: ['settings/snmp'] })
    }
  }

  const remove = async (c: Credential): Promise<void> => {
    if (!window.confirm(`Delete the SNMP credential "${c.name ?? c.id}"?`)) return
    setError(null)
    try {
      await call('DELETE', `settings/snmp/${encodeURIComponent(c.id)}`)
    } catch (err) {
      setError(`Not deleted: ${message(err)}`)
    } finally {
      await client.invalidateQueries({ queryKey: ['settings/snmp'] })
    }
  }

  return (
    <>
      <h3>SNMP credentials</h3>
      <p className="muted">Tried in this order. Secrets are write-only: netinv never shows them again.</p>
      <div className="scroll">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Version</th>
              <th scope="col">Community or user</th>
              <th scope="col">Authentication</th>
              <th scope="col">Privacy</th>
              <th scope="col">Networks</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(Array.isArray(list.data) ? list.data : []).map((c) => (
              <tr key={c.id} data-credential={c.id}>
                <td className="num">{c.position}</td>
                <td>{c.name}</td>
                <td>{c.version}</td>
                <td>{c.version === '2c' ? c.community : c.user}</td>
                <td>{c.version === '3' ? `${c.authProtocol ?? 'none'} ${c.authPassword ?? ''}` : ''}</td>
                <td>{c.version === '3' ? `${c.privProtocol ?? 'none'} ${c.privPassword ?? ''}` : ''}</td>
                <td>{strings(c.networks).length === 0 ? 'every address' : strings(c.networks).join(', ')}</td>
                <td className="actions">
                  <button type="button" className="danger" onClick={() => void remove(c)} aria-label={`Delete credential ${c.name ?? c.id}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="inline" aria-label="Add an SNMP credential" onSubmit={(e) => void add(e)}>
        <label>
          Credential name
          <input name="name" required />
        </label>
        <label>
          SNMP version
          <select value={version} onChange={(e) => setVersion(e.target.value as '2c' | '3')}>
            <option value="2c">2c</option>
            <option value="3">3</option>
          </select>
        </label>
        {version === '2c' ? (
          <label>
            Community
            <input name="community" type="password" autoComplete="off" required />
          </label>
        ) : (
          <>
            <label>
              User
              <input name="user" required autoComplete="off" />
            </label>
            <label>
              Authentication
              <select name="authProtocol" defaultValue="SHA">
                <option value="">none</option>
                <option>SHA</option>
                <option>SHA-256</option>
              </select>
            </label>
            <label>
              Authentication password
              <input name="authPassword" type="password" autoComplete="new-password" />
            </label>
            <label>
              Privacy
              <select name="privProtocol" defaultValue="">
                <option value="">none</option>
                <option>AES</option>
              </select>
            </label>
            <label>
              Privacy password
              <input name="privPassword" type="password" autoComplete="new-password" />
            </label>
          </>
        )}
        <label>
          Only for networks
          <input name="networks" placeholder="all; or 10.1.0.0/16, …" />
        </label>
        <button type="submit" className="primary">
          Add credential
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  )
}
