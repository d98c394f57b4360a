import { useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useState, type MouseEvent, type ReactNode } from 'react'
import { clearSession, getJson, hasSession, onSessionLost, send } from './api'
import { Admin } from './pages/Admin'
import { Explorer } from './pages/Explorer'
import { Login } from './pages/Login'
import { Overview } from './pages/Overview'
import { Paths } from './pages/Paths'
import { Rules } from './pages/Rules'
import { Snapshots } from './pages/Snapshots'
import { navigate, useLocation } from './router'
import type { Me } from './types'

// The graph library is loaded only when the topology is opened.
const Topology = lazy(() => import('./pages/Topology').then((m) => ({ default: m.Topology })))

/** A link inside the interface: the address changes without a page load. */
export function Link(props: { to: string; children: ReactNode; className?: string; 'aria-current'?: 'page' | undefined }): ReactNode {
  const go = (e: MouseEvent<HTMLAnchorElement>): void => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(props.to)
  }
  return (
    <a href={props.to} onClick={go} className={props.className} aria-current={props['aria-current']}>
      {props.children}
    </a>
  )
}

const NAV: ReadonlyArray<{ to: string; label: string; match: (p: string) => boolean; scopes?: string[] }> = [
  { to: '/overview', label: 'Overview', match: (p) => p === '/' || p === '/overview' },
  { to: '/snapshots', label: 'Snapshots', match: (p) => p === '/snapshots' },
  { to: '/inventory/devices', label: 'Tables', match: (p) => !['/', '/overview', '/snapshots', '/admin', '/topology', '/paths', '/reports'].includes(p) && !p.startsWith('/administration/') },
  { to: '/topology', label: 'Topology', match: (p) => p === '/topology' },
  { to: '/paths', label: 'Paths', match: (p) => p === '/paths' },
  { to: '/reports', label: 'Intent rules', match: (p) => p === '/reports' },
  { to: '/admin', label: 'Administration', match: (p) => p === '/admin' || p.startsWith('/administration/'), scopes: ['team', 'settings'] },
]

export function App(): ReactNode {
  const [me, setMe] = useState<Me | null | undefined>(undefined)
  const client = useQueryClient()
  const loc = useLocation()

  useEffect(() => {
    onSessionLost(() => {
      client.clear()
      setMe(null)
    })
    if (!hasSession()) setMe(null)
    else getJson<Me>('users/me').then(setMe, () => setMe(null))
  }, [client])

  useEffect(() => {
    document.title = `${pageTitle(loc.path)} · netinv`
  }, [loc.path])

  if (me === undefined) return <p className="loading">Loading…</p>
  if (me === null) return <Login onLoggedIn={setMe} />

  const logout = async (): Promise<void> => {
    try {
      await send('POST', 'auth/logout', {})
    } finally {
      clearSession()
      client.clear()
      setMe(null)
    }
  }

  let page: ReactNode
  if (loc.path === '/' || loc.path === '/overview') page = <Overview />
  else if (loc.path === '/snapshots') page = <Snapshots me={me} />
  else if (loc.path === '/admin') page = <Admin me={me} />
  else if (loc.path === '/reports') page = <Rules me={me} />
  else if (loc.path === '/paths') page = <Paths />
  else if (loc.path === '/topology')
    page = (
      <Suspense fallback={<p>Loading…</p>}>
        <Topology />
      </Suspense>
    )
  else page = <Explorer />

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">netinv</span>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((n) => n.scopes === undefined || n.scopes.some((s) => me.scope.includes(s))).map((n) => (
              <li key={n.to}>
                <Link to={n.to} aria-current={n.match(loc.path) ? 'page' : undefined}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          <span className="user">{me.username}</span>
          <button type="button" onClick={() => void logout()}>
            Log out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </>
  )
}

function pageTitle(path: string): string {
  if (path === '/' || path === '/overview') return 'Overview'
  if (path === '/snapshots') return 'Snapshots'
  if (path === '/admin') return 'Administration'
  if (path === '/topology') return 'Topology'
  if (path === '/paths') return 'Path lookup'
  if (path === '/reports') return 'Intent rules'
  return 'Tables'
}
