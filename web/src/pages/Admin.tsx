import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { call, getJson, postJson } from '../api'
import { Link } from '../App'
import type { Me } from '../types'
import { DiscoverySettings } from './DiscoverySettings'
import { SCOPES, ScopeEditor } from './ScopeEditor'

interface ApiKey {
  id: string
  description: string | null
  scope: string[]
  username: string
  expires: number | null
  lastUsed: number | null
  createdAt: number
  token?: string
}
interface User {
  id: string
  username: string
  scope: string[]
  eulaApproved: boolean
}


/** Administration: API keys and users (scope "team"), discovery settings (scope "settings"). The API refuses the rest anyway. */
export function Admin(props: { me: Me }): ReactNode {
  const team = props.me.scope.includes('team')
  const settings = props.me.scope.includes('settings')
  if (!team && !settings) {
    return (
      <>
        <h1>Administration</h1>
        <p role="alert" className="error">
          Administration needs the scope "team" (API keys, users) or "settings" (discovery settings), which your account ({props.me.username}) does not have. Ask a user with scope "team".
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Administration</h1>
      {team && (
        <nav aria-label="Records" className="records">
          Who did what: <Link to="/administration/audit?sort=id:desc">the audit trail</Link> (newest first) · the <Link to="/administration/users">users</Link> and{' '}
          <Link to="/administration/roles">roles</Link> as tables (filters, sort, CSV)
        </nav>
      )}
      {team && <ApiKeys me={props.me} />}
      {team && <Users me={props.me} />}
      {settings && <DiscoverySettings />}
    </>
  )
}

function ApiKeys(props: { me: Me }): ReactNode {
  const client = useQueryClient()
  const keys = useQuery({ queryKey: ['api-tokens'], queryFn: () => getJson<ApiKey[]>('api-tokens') })
  const [created, setCreated] = useState<ApiKey | null>(null)
  const [error, setError] = useState<string | null>(null)
  const own = props.me.scope

  const create = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const scope = SCOPES.filter((s) => form.get(`scope-${s}`) === 'on')
    const days = Number(form.get('days') ?? 0)
    setError(null)
    try {
      const key = await postJson<ApiKey>('api-tokens', { description: String(form.get('description') ?? ''), scope, ...(days > 0 ? { expires: Date.now() + days * 86_400_000 } : {}) })
      setCreated(key)
      await client.invalidateQueries({ queryKey: ['api-tokens'] })
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }

  const remove = async (k: ApiKey): Promise<void> => {
    if (!window.confirm(`Delete the API key "${k.description ?? k.id}"? Programs using it stop working.`)) return
    try {
      await call('DELETE', `api-tokens/${k.id}`)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
    await client.invalidateQueries({ queryKey: ['api-tokens'] })
  }

  return (
    <section aria-labelledby="keys-h" className="card">
      <h2 id="keys-h">API keys</h2>
      <form className="inline" onSubmit={(e) => void create(e)}>
        <label>
          What it is for
          <input name="description" required placeholder="e.g. nightly export" />
        </label>
        <fieldset className="scopes">
          <legend>Scopes (at most your own)</legend>
          {SCOPES.map((s) => (
            <label key={s} className="check">
              <input type="checkbox" name={`scope-${s}`} defaultChecked={s === 'read'} disabled={!own.includes(s)} />
              {s}
            </label>
          ))}
        </fieldset>
        <label>
          Expires after (days, 0: never)
          <input name="days" type="number" min={0} defaultValue={90} className="narrow" />
        </label>
        <button type="submit" className="primary">
          Create key
        </button>
      </form>
      {created?.token && (
        <div role="status" className="created">
          <p>
            The key for "{created.description}", shown only now: <code className="secret">{created.token}</code>
          </p>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created.token ?? '')}>
            Copy key
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="scroll">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col">Owner</th>
              <th scope="col">Scopes</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((k) => (
              <tr key={k.id}>
                <td>{k.description}</td>
                <td>{k.username}</td>
                <td>
                  {k.scope.join(', ')}
                  <ScopeEditor
                    what={`key ${k.description ?? k.id}`}
                    current={k.scope}
                    own={own}
                    save={async (scope) => {
                      await call('PATCH', `api-tokens/${k.id}`, { scope })
                      await client.invalidateQueries({ queryKey: ['api-tokens'] })
                    }}
                  />
                </td>
                <td>{k.expires === null ? 'never' : new Date(k.expires).toISOString().slice(0, 10)}</td>
                <td>{k.lastUsed === null ? 'never' : new Date(k.lastUsed).toISOString().slice(0, 16).replace('T', ' ')}</td>
                <td>
                  <button type="button" className="danger" onClick={() => void remove(k)} aria-label={`Delete key ${k.description ?? k.id}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function Users(props: { me: Me }): ReactNode {
  const client = useQueryClient()
  const users = useQuery({ queryKey: ['users'], queryFn: () => getJson<User[]>('users') })
  return (
    <section aria-labelledby="users-h" className="card">
      <h2 id="users-h">Users</h2>
      <div className="scroll">
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Scopes</th>
              <th scope="col">EULA</th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>
                  {u.scope.join(', ')}
                  <ScopeEditor
                    what={`user ${u.username}`}
                    current={u.scope}
                    own={props.me.scope}
                    save={async (scope) => {
                      await call('PATCH', `users/${u.id}`, { scope })
                      await client.invalidateQueries({ queryKey: ['users'] })
                    }}
                  />
                </td>
                <td>{u.eulaApproved ? 'accepted' : 'not yet'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
