import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { ApiFailure, getJson, noteTokens, postJson } from '../api'
import type { Me, Providers } from '../types'

type Step = 'credentials' | 'eula'

/**
 * A single sign-on login whose user has not approved the EULA comes back to `/#ssoEula=<ticket>`:
 * the ticket, taken out of the address (it is used once, with POST auth/eula).
 */
function takeSsoTicket(): string | null {
  const ticket = /^#ssoEula=([\w-]+)$/.exec(window.location.hash)?.[1] ?? null
  if (ticket !== null) window.history.replaceState(null, '', window.location.pathname + window.location.search)
  return ticket
}

export function Login(props: { onLoggedIn: (me: Me) => void }): ReactNode {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [ticket, setTicket] = useState<string | null>(takeSsoTicket)
  const [step, setStep] = useState<Step>(ticket === null ? 'credentials' : 'eula')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [providers, setProviders] = useState<Providers | null>(null)

  useEffect(() => {
    getJson<Providers>('auth/providers', { anonymous: true }).then(setProviders, (err: unknown) => setError(err instanceof Error ? err.message : String(err)))
  }, [])

  const logIn = async (): Promise<void> => {
    noteTokens(await postJson<{ accessToken?: string }>('auth/login', { username, password }, { anonymous: true }))
    props.onLoggedIn(await getJson<Me>('users/me', { anonymous: true }))
  }

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await logIn()
    } catch (err) {
      if (err instanceof ApiFailure && err.code === 'API_MISSING_EULA_APPROVAL') setStep('eula')
      else if (err instanceof ApiFailure && err.code === 'API_LOCAL_AUTHENTICATION_DISABLED') setError('Sign-in with a username and password is turned off on this server (app.enableLocalAuthentication). Ask an administrator for single sign-on or an API key.')
      else if (err instanceof ApiFailure && err.code === 'API_INVALID_CREDENTIALS') setError('Wrong username or password.')
      else setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  const accept = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      if (ticket !== null) {
        // The approval opens the session of the single sign-on login it belongs to.
        noteTokens(await postJson<{ accessToken?: string }>('auth/eula', { ticket, accept: true }, { anonymous: true }))
        props.onLoggedIn(await getJson<Me>('users/me', { anonymous: true }))
        return
      }
      await postJson('auth/eula', { username, password, accept: true }, { anonymous: true })
      await logIn()
    } catch (err) {
      if (ticket !== null && err instanceof ApiFailure && err.code === 'API_INVALID_CREDENTIALS') {
        setTicket(null)
        setStep('credentials')
        setError('The approval took too long or was already given: log in with single sign-on again.')
        return
      }
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }

  if (step === 'eula') {
    return (
      <main id="main" className="login">
        <h1>End user license agreement</h1>
        <p>Before {ticket === null ? username : 'you'} can use netinv, the license agreement must be accepted once.</p>
        <section className="eula" aria-label="License agreement" tabIndex={0}>
          <p>netinv discovers and records the devices, addresses and configuration of the networks you point it at. By accepting you confirm that:</p>
          <ol>
            <li>you are authorised to discover and record the networks this installation reaches;</li>
            <li>you keep the credentials and the data it gathers under the policies of your organisation;</li>
            <li>the software is provided as is, without warranty of any kind.</li>
          </ol>
        </section>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void accept()}>
            Accept and log in
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setTicket(null)
              setStep('credentials')
            }}
          >
            Decline
          </button>
        </div>
      </main>
    )
  }

  // Until the answer arrives the form is shown: a server that predates auth/providers has one.
  const local = providers?.password.local ?? true
  const ldap = providers?.password.ldap ?? false
  const sso = providers?.sso ?? []
  const passwords = local || ldap
  return (
    <main id="main" className="login">
      <h1>netinv</h1>
      <p className="muted">Network discovery and inventory</p>
      {sso.length > 0 && (
        <section className="sso" aria-label="Single sign-on">
          {sso.map((p) => (
            <a key={p.name} className="button primary" href={p.start}>
              Log in with {p.displayName}
            </a>
          ))}
        </section>
      )}
      {!local && (
        <p className="notice" role="note">
          {ldap
            ? 'Passwords kept by netinv are turned off on this server: log in with your directory account'
            : 'Passwords are turned off on this server (app.enableLocalAuthentication is false)'}
          {sso.length > 0 ? (ldap ? ' or with single sign-on.' : ': log in with single sign-on.') : ldap ? '.' : ', and no single sign-on is configured: ask an administrator, or use an API key.'}
        </p>
      )}
      {passwords && (
        <form onSubmit={(e) => void submit(e)} aria-label="Log in">
          {sso.length > 0 && <p className="muted or">or with a {local ? 'username and password' : 'directory account'}</p>}
          <label>
            Username
            <input name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy}>
            Log in
          </button>
        </form>
      )}
      {!passwords && error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </main>
  )
}
