import { useState, type FormEvent, type ReactNode } from 'react'

export const SCOPES = ['read', 'write', 'settings', 'team']

/**
 * A row's scopes changed in place (an API key's, a user's): one box a scope, the ones the user
 * does not hold disabled (one grants at most one's own scopes; the API refuses more anyway), a
 * refusal explained under the boxes.
 */
export function ScopeEditor(props: { what: string; current: string[]; own: string[]; save: (scope: string[]) => Promise<void> }): ReactNode {
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent<HTMLFormElement>): Promise<void> => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const scope = SCOPES.filter((s) => form.get(s) === 'on')
    setError(null)
    setBusy(true)
    try {
      await props.save(scope)
      setOpen(false)
    } catch (err) {
      setError(`Not changed: ${err instanceof Error ? err.message : String(err)}`)
    } finally {
      setBusy(false)
    }
  }

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} aria-label={`Change scopes of ${props.what}`}>
        Change scopes
      </button>
    )
  }
  return (
    <form className="scope-editor" aria-label={`Scopes of ${props.what}`} onSubmit={(e) => void submit(e)}>
      <fieldset className="scopes">
        <legend className="sr-only">Scopes of {props.what}</legend>
        {SCOPES.map((s) => (
          <label key={s} className="check">
            <input type="checkbox" name={s} defaultChecked={props.current.includes(s)} disabled={!props.own.includes(s)} />
            {s}
          </label>
        ))}
      </fieldset>
      {props.current.some((s) => !props.own.includes(s)) && <p className="muted note">Scopes you do not hold cannot be granted: saving drops them.</p>}
      <button type="submit" className="primary" disabled={busy}>
        Save scopes
      </button>
      <button type="button" onClick={() => (setOpen(false), setError(null))}>
        Cancel
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}
