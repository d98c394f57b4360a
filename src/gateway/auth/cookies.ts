/**
 * The token cookies (COMPAT): `accessToken` (Path=/) and `refreshToken` (Path=/api/auth/token),
 * HttpOnly, SameSite=Strict, Secure when the request came over TLS (directly or as told by
 * X-Forwarded-Proto).
 */
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'

export const ACCESS_COOKIE_PATH = '/'
export const REFRESH_COOKIE_PATH = '/api/auth/token'

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() !== name) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return undefined
}

export function isSecureRequest(req: IncomingMessage): boolean {
  if ((req.socket as TLSSocket).encrypted) return true
  const proto = req.headers['x-forwarded-proto']
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase()
  return first === 'https'
}

/** SameSite=Strict unless told `lax` (the single sign-on state cookie, which comes back with the provider's redirect). */
export function setCookie(name: string, value: string, options: { path: string; maxAgeSeconds: number; secure: boolean; sameSite?: 'Strict' | 'Lax' }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', `SameSite=${options.sameSite ?? 'Strict'}`]
  if (options.maxAgeSeconds <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  if (options.secure) parts.push('Secure')
  return parts.join('; ')
}
