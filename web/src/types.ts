/** The shapes of the API answers the interface reads (see the API specification). */
export interface Me {
  id: string
  username: string
  scope: string[]
  isAdmin?: boolean
}

/** GET auth/providers: how people log in here. */
export interface Providers {
  password: { local: boolean; ldap: boolean }
  sso: Array<{ name: string; displayName: string; start: string }>
}

export interface Snapshot {
  id: string
  name: string | null
  note: string | null
  state: string
  status: string
  locked: boolean
  loading: boolean
  totalDevCount: number
  interfaceCount: number
  tsStart: number
  tsEnd: number | null
  origin: string
  jobId?: string
  sites?: Array<{ siteName: string }>
  errors?: Array<{ errorType?: string; message?: string }>
}

export interface Job {
  id: string
  name: string
  status: string
  isDone: boolean
  snapshot: string | null
  progress: number | null
  message: string | null
}

export interface Column {
  name: string
  type: string
  description: string
  values?: string[]
  operators?: string[]
}

export interface TableSummary {
  path: string
  title: string
  description: string
  snapshotScoped: boolean
  webPath: string
  defaultSort: { column: string; order: 'asc' | 'desc' }
  key: string[]
  volatile: string[]
  columns: Column[]
}

export interface TableDescription extends TableSummary {
  exampleRequest: Record<string, unknown>
}

export interface Cell {
  data: unknown
  severity: number
}

export type Row = Record<string, unknown>

export interface TableAnswer {
  data: Row[]
  _meta: { limit: number; start: number; count: number; size: number }
}

export interface Report {
  id: string
  name: string
  apiEndpoint: string
  webEndpoint: string
  column: string
  custom: boolean
  checks: Record<string, unknown>
  descriptions?: { general?: string } | null
  result?: { count: number; checks: Record<string, string> }
}

export const SEVERITIES: ReadonlyArray<{ value: number; name: string }> = [
  { value: 0, name: 'green' },
  { value: 10, name: 'blue' },
  { value: 20, name: 'yellow' },
  { value: 30, name: 'red' },
]
