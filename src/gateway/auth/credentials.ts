/**
 * What credentials a request carries, in order of precedence: `X-API-Token`, then
 * `Authorization` (Basic per RFC 7617 with UTF-8, or Bearer), then the `accessToken` cookie.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { ApiError } from '../../shared/errors.js'
import { readCookie } from './cookies.js'

export type Credentials =
  | { kind: 'apiKey'; key: string }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'cookie'; token: string }

export const ACCESS_COOKIE = 'accessToken'
export const REFRESH_COOKIE = 'refreshToken'

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** RFC 7617: base64 of `user-id ":" password`, UTF-8; the password may contain ':'. */
export function parseBasic(encoded: string): { username: string; password: string } {
  const b64 = encoded.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new ApiError('API_INVALID_CREDENTIALS')
  const decoded = Buffer.from(b64, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0 || decoded.includes('\uFFFD')) throw new ApiError('API_INVALID_CREDENTIALS')
  return { username: decoded.slice(0, colon).normalize('NFC'), password: decoded.slice(colon + 1) }
}

/** null when the request carries no credentials at all. */
export function readCredentials(headers: IncomingHttpHeaders): Credentials | null {
  const apiKey = single(headers['x-api-token'])
  if (apiKey !== undefined) {
    const key = apiKey.trim()
    if (key === '') throw new ApiError('API_INVALID_API_TOKEN')
    return { kind: 'apiKey', key }
  }
  const authorization = single(headers.authorization)
  if (authorization !== undefined && authorization.trim() !== '') {
    const value = authorization.trim()
    const space = value.indexOf(' ')
    const scheme = (space < 0 ? value : value.slice(0, space)).toLowerCase()
    const rest = space < 0 ? '' : value.slice(space + 1).trim()
    if (scheme === 'basic') return { kind: 'basic', ...parseBasic(rest) }
    if (scheme === 'bearer') {
      if (rest === '') throw new ApiError('API_INVALID_ACCESS_TOKEN')
      return { kind: 'bearer', token: rest }
    }
    throw new ApiError('API_UNAUTHORIZED', 'Unsupported authorization scheme; use Basic, Bearer or X-API-Token')
  }
  const cookie = readCookie(headers.cookie, ACCESS_COOKIE)
  if (cookie !== undefined && cookie !== '') return { kind: 'cookie', token: cookie }
  return null
}
