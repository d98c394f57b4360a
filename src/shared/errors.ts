/**
 * The one table of API error codes: code → HTTP status and default message.
 * Every error body the product sends is built from this table (see `ApiError` and `errorBody`).
 * docs/errors.md is generated from it and a test keeps both in step.
 */
export const ERRORS = {
  API_MALFORMED_REQUEST: { status: 400, message: 'Malformed request' },
  API_UNAUTHORIZED: { status: 401, message: 'Authentication required' },
  API_INVALID_CREDENTIALS: { status: 401, message: 'Invalid Credentials' },
  API_EXPIRED_ACCESS_TOKEN: { status: 401, message: 'Expired JWT Access Token' },
  API_INVALID_ACCESS_TOKEN: { status: 401, message: 'Invalid JWT Access Token' },
  API_EXPIRED_API_TOKEN: { status: 401, message: 'Expired API Token' },
  API_INVALID_API_TOKEN: { status: 401, message: 'Invalid API Token' },
  API_INVALID_REFRESH_TOKEN: { status: 401, message: 'Invalid Refresh Token' },
  API_INTERNAL_AUTH_REQUIRED: { status: 401, message: 'Requests must come through the gateway' },
  API_MISSING_EULA_APPROVAL: { status: 403, message: 'EULA approval is required; approve it in the user interface' },
  API_INSUFFICIENT_RIGHTS: { status: 403, message: 'Insufficient rights to access the resource' },
  API_LOCAL_AUTHENTICATION_DISABLED: {
    status: 403,
    message: 'Local authentication is disabled; log in with your directory account (LDAP) or use an API key',
  },
  API_NOT_FOUND: { status: 404, message: 'Requested Resource Not Found', fixed: true },
  API_METHOD_NOT_ALLOWED: { status: 405, message: 'Method Not Allowed' },
  API_NOT_ACCEPTABLE: { status: 406, message: 'The Accept header cannot be satisfied' },
  API_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  API_CONFLICT: { status: 409, message: 'Conflict with the current state of the resource' },
  API_SNAPSHOT_LOCKED: { status: 409, message: 'The snapshot is locked' },
  API_SNAPSHOT_NOT_LOADED: { status: 409, message: 'The snapshot is not loaded' },
  API_SNAPSHOT_BUSY: { status: 409, message: 'The snapshot is being discovered or loaded' },
  API_VERSION_GONE: { status: 410, message: 'The requested API version is not supported' },
  API_PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body too large' },
  API_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  API_EXPECTATION_FAILED: { status: 417, message: 'Only "Expect: 100-continue" is supported' },
  API_INVALID_INPUT: { status: 422, message: 'Invalid input' },
  API_TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests' },
  API_HEADERS_TOO_LARGE: { status: 431, message: 'Request headers too large' },
  API_INTERNAL_ERROR: { status: 500, message: 'Internal Server Error' },
  API_UPSTREAM_UNAVAILABLE: { status: 502, message: 'The inventory service is unavailable' },
  API_SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready' },
  API_DIRECTORY_UNAVAILABLE: { status: 503, message: 'The user directory is not available at the moment; retry later' },
  API_DATABASE_UNAVAILABLE: { status: 503, message: 'The database is not available at the moment; retry later' },
  API_DATABASE_BUSY: { status: 503, message: 'Every database connection is busy; retry later' },
  API_QUERY_TIMEOUT: { status: 503, message: 'The query did not finish within the time limit; narrow the filters or the page' },
  API_UPSTREAM_TIMEOUT: { status: 504, message: 'The inventory service did not answer in time' },
  API_STORAGE_FULL: { status: 507, message: 'The database has no space left; free space on its disk, then retry' },
} as const satisfies Record<string, { status: number; message: string; fixed?: true }>

export type ErrorCode = keyof typeof ERRORS

/**
 * Whether the spec fixes a code's message (`API_NOT_FOUND`: always "Requested Resource Not
 * Found"): what a thrower says of the case goes in `detail` instead.
 */
export function hasFixedMessage(code: ErrorCode): boolean {
  return 'fixed' in ERRORS[code]
}

/** One validation problem, in the shape clients parse (`errors[].message`). */
export interface ValidationIssue {
  message: string
  path?: string
}

/** The error every part of the product throws for an expected failure. */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors: ValidationIssue[] | undefined
  readonly headers: Record<string, string> | undefined
  /** What this case is about (which snapshot, which job), next to a fixed message. */
  readonly detail: string | undefined

  /**
   * For a code whose message the spec fixes, a `message` given here becomes the `detail` and the
   * message stays the table's: `new ApiError('API_NOT_FOUND', 'Job x not found')` answers
   * `{"message": "Requested Resource Not Found", "detail": "Job x not found"}`.
   */
  constructor(
    code: ErrorCode,
    message?: string,
    options: { errors?: ValidationIssue[]; headers?: Record<string, string>; detail?: string } = {},
  ) {
    const fixed = hasFixedMessage(code)
    super(fixed || message === undefined ? ERRORS[code].message : message)
    this.name = 'ApiError'
    this.code = code
    this.status = ERRORS[code].status
    this.errors = options.errors
    this.headers = options.headers
    this.detail = options.detail ?? (fixed ? message : undefined)
  }
}

/**
 * Problems listed in one 422 answer; the rest are counted in a last entry. A body of 500 unknown
 * columns would otherwise be answered with 500 copies of the table's column list.
 */
export const MAX_LISTED_ISSUES = 10

/** 422 with the `errors` list clients parse, plus `code` and `message` at top level. */
export function invalidInput(issues: ValidationIssue[] | string): ApiError {
  let list = typeof issues === 'string' ? [{ message: issues }] : issues
  if (list.length > MAX_LISTED_ISSUES) {
    const more = list.length - MAX_LISTED_ISSUES
    list = [...list.slice(0, MAX_LISTED_ISSUES), { message: `${more} more problem${more === 1 ? '' : 's'} of the same request not listed` }]
  }
  return new ApiError('API_INVALID_INPUT', list[0]?.message ?? ERRORS.API_INVALID_INPUT.message, { errors: list })
}

/** 404 `API_NOT_FOUND`; `detail` says what was not found (the message is always the spec's). */
export function notFound(detail?: string): ApiError {
  return new ApiError('API_NOT_FOUND', undefined, detail === undefined ? {} : { detail })
}

export interface ErrorBody {
  code: ErrorCode
  message: string
  /** What the error is about, where the message cannot say it (see `ApiError`). */
  detail?: string
  errors?: ValidationIssue[]
}

/**
 * Turns anything thrown into a status and a body. Unknown errors become a 500 that says
 * nothing internal; the caller logs the original.
 */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (err instanceof ApiError) {
    const body: ErrorBody = { code: err.code, message: err.message }
    if (err.detail !== undefined) body.detail = err.detail
    if (err.errors) body.errors = err.errors
    return { status: err.status, body, headers: err.headers ?? {} }
  }
  return {
    status: 500,
    body: { code: 'API_INTERNAL_ERROR', message: ERRORS.API_INTERNAL_ERROR.message },
    headers: {},
  }
}
