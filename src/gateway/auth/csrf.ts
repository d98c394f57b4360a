/**
 * Cross-site request forgery: the browser sends the `accessToken` cookie with any request to this
 * origin, so a request that changes state on the strength of that cookie alone must prove that a
 * page of this origin sent it. SameSite=Strict already keeps the cookie off requests that other
 * sites start; on top of it such a request must carry the header `X-Requested-With` (any value):
 * a page of another origin cannot add a header of its own without a CORS preflight, which the
 * gateway never grants. Requests that carry an API key or an `Authorization` header are not
 * cookie-authenticated and need nothing more.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { readCookie } from './cookies.js'
import { ACCESS_COOKIE, REFRESH_COOKIE } from './credentials.js'

export const CSRF_HEADER = 'x-requested-with'
export const CSRF_MESSAGE = 'A request that changes state with the session cookie needs the header X-Requested-With (any value), which only a page of this site can send; programs use an API key or a Bearer token instead'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

function present(value: string | string[] | undefined): boolean {
  const v = Array.isArray(value) ? value[0] : value
  return v !== undefined && v.trim() !== ''
}

/** True when `method` changes state and the request is authenticated by the access cookie only. */
export function lacksCsrfHeader(method: string, headers: IncomingHttpHeaders): boolean {
  if (SAFE.has(method) || present(headers[CSRF_HEADER])) return false
  if (present(headers['x-api-token']) || present(headers.authorization)) return false
  const cookie = readCookie(headers.cookie, ACCESS_COOKIE)
  return cookie !== undefined && cookie !== ''
}

/** True when a refresh takes its token from the `refreshToken` cookie without the header. */
export function refreshLacksCsrfHeader(headers: IncomingHttpHeaders): boolean {
  if (present(headers[CSRF_HEADER])) return false
  const cookie = readCookie(headers.cookie, REFRESH_COOKIE)
  return cookie !== undefined && cookie !== ''
}
