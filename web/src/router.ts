/** The address is the state: path (a page or a table's webPath) and query string. */
import { useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()
function subscribe(f: () => void): () => void {
  listeners.add(f)
  window.addEventListener('popstate', f)
  return () => {
    listeners.delete(f)
    window.removeEventListener('popstate', f)
  }
}
function snapshot(): string {
  return window.location.pathname + window.location.search
}

export function navigate(to: string, replace = false): void {
  if (to === snapshot()) return
  if (replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  for (const f of listeners) f()
}

export interface Location {
  path: string
  query: URLSearchParams
}

export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot)
  const q = href.indexOf('?')
  return { path: q < 0 ? href : href.slice(0, q), query: new URLSearchParams(q < 0 ? '' : href.slice(q + 1)) }
}

/** The same path with some query parameters set (undefined or '' removes one). */
export function withQuery(loc: Location, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams(loc.query)
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') q.delete(k)
    else q.set(k, v)
  }
  const s = q.toString()
  return s === '' ? loc.path : `${loc.path}?${s}`
}
