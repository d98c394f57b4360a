/**
 * The stored login of the command-line client: per API address, the user and the token pair of
 * `POST auth/login`, in `$XDG_CONFIG_HOME/netinv/session.json` (default `~/.config`), readable by
 * its owner only (the refresh token keeps a user logged in: the spec asks to store it securely).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export interface Session {
  username: string
  accessToken: string
  refreshToken: string
  /** When the login (or the last refresh) happened, ms since the epoch. */
  savedAt: number
}

export interface SessionFile {
  /** The address of the last login: the default of NETINV_URL. */
  current?: string
  sessions: Record<string, Session>
}

/** Where the stored login lives for `env` (XDG_CONFIG_HOME, else APPDATA on Windows, else ~/.config). */
export function sessionPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' ? env.APPDATA : undefined) || join(env.HOME || homedir(), '.config')
  return join(base, 'netinv', 'session.json')
}

export function readSessionFile(path: string): SessionFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { sessions: {} }
    throw err
  }
  try {
    const parsed = JSON.parse(text) as Partial<SessionFile>
    return { ...(typeof parsed.current === 'string' ? { current: parsed.current } : {}), sessions: typeof parsed.sessions === 'object' && parsed.sessions ? parsed.sessions : {} }
  } catch {
    throw new Error(`${path} is not valid JSON: remove it and log in again`)
  }
}

/** Writes the file whole (a temporary file renamed over it), mode 0600 in a 0700 directory. */
export function writeSessionFile(path: string, file: SessionFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  // mkdir leaves a directory that existed as it was (0755 from another tool): tighten it too.
  chmodSync(dirname(path), 0o700)
  const temp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temp, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, path)
  } finally {
    rmSync(temp, { force: true })
  }
}

export function saveSession(path: string, url: string, session: Session): void {
  const file = readSessionFile(path)
  writeSessionFile(path, { current: url, sessions: { ...file.sessions, [url]: session } })
}

/** Forgets the login to `url`; returns whether there was one. */
export function removeSession(path: string, url: string): boolean {
  const file = readSessionFile(path)
  if (!file.sessions[url]) return false
  const { [url]: _gone, ...sessions } = file.sessions
  writeSessionFile(path, { ...(file.current && file.current !== url ? { current: file.current } : {}), sessions })
  return true
}
