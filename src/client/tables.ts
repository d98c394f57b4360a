/**
 * Table requests from command-line words: the table by its path or short name (from `GET
 * tables`), `--filter column:operator:value` (values typed by the column) or a JSON filter object,
 * `--sort column[:asc|desc]` or `-column`, and the pages of `POST tables/<path>`.
 */
import { UsageError, didYouMean } from '../commands/args.js'
import { didYouMeanOneOf, nearPaths } from '../shared/suggest.js'
import type { ApiClient } from './api.js'

export interface TableColumn {
  name: string
  type: string
  values?: string[]
}

export interface TableInfo {
  path: string
  legacyPaths?: string[]
  title?: string
  snapshotScoped: boolean
  /** false: a table of the API family netinv does not fill (it answers no rows). */
  collected?: boolean
  columns: TableColumn[]
}

/** Paths near `wanted`; the tables netinv fills only, when any of them is near (a typo of a table with rows is the likelier). */
function nearFilled(wanted: string, tables: readonly TableInfo[]): string[] {
  const near = nearPaths(wanted, tables.map((t) => t.path))
  const filled = new Set(tables.filter((t) => t.collected !== false).map((t) => t.path))
  const useful = near.filter((p) => filled.has(p))
  return useful.length > 0 ? useful : near
}

export type Row = Record<string, unknown>
export type Filter = Record<string, unknown>

export interface Page {
  data: Row[]
  _meta: { count: number; size: number; start: number; limit: number }
}

export async function fetchTables(client: ApiClient): Promise<TableInfo[]> {
  return client.json<TableInfo[]>('GET', 'tables')
}

/**
 * A table named by its path (`inventory/interfaces`), a legacy path, a name in the inventory
 * group (`interfaces`), or the last segments of exactly one path (`bgp/neighbors`; one word only
 * when no other table's name is close to it). Anything else is an error naming the candidates.
 */
export function resolveTable(tables: readonly TableInfo[], name: string): TableInfo {
  const wanted = name.replace(/^\/+|\/+$/g, '').replace(/^tables\//, '')
  const exact = tables.find((t) => t.path === wanted || t.legacyPaths?.includes(wanted))
  if (exact) return exact
  const inventory = tables.find((t) => t.path === `inventory/${wanted}`)
  if (inventory) return inventory
  const ending = tables.filter((t) => t.path.endsWith(`/${wanted}`))
  // one word that ends one path but is also close to another table's name (`device`: vlan/device,
  // inventory/devices) is not taken silently
  const others = wanted.includes('/') ? [] : nearFilled(wanted, tables).filter((p) => !ending.some((t) => t.path === p))
  if (ending.length === 1 && others.length === 0) return ending[0]!
  if (ending.length > 0) {
    const candidates = [...ending.map((t) => t.path), ...others]
    throw new UsageError(`table "${name}" is ambiguous: ${candidates.join(', ')}; give its path`)
  }
  const near = nearFilled(wanted, tables)
  const hint = near.length > 0 ? didYouMeanOneOf(near) : didYouMean(wanted, tables.flatMap((t) => [t.path, t.path.split('/').pop()!]))
  throw new UsageError(`no table "${name}"${hint}; "netinv query --tables" lists them`)
}

const NUMERIC_OPERATORS = new Set(['gt', 'gte', 'lt', 'lte'])

/** A value of a `column:operator:value` filter, typed as the column is (numbers, booleans, null). */
function typedValue(column: TableColumn | undefined, operator: string, text: string): unknown {
  if (operator === 'empty') {
    if (text !== 'true' && text !== 'false') throw new UsageError(`the value of "empty" is true or false, not "${text}"`)
    return text === 'true'
  }
  if (text === 'null' && (operator === 'eq' || operator === 'neq')) return null
  const type = column?.type
  if (NUMERIC_OPERATORS.has(operator) || type === 'integer' || type === 'number') {
    const n = Number(text)
    if (text.trim() !== '' && Number.isFinite(n)) return n
    if (NUMERIC_OPERATORS.has(operator)) throw new UsageError(`"${operator}" compares numbers; "${text}" is not one`)
  }
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

/**
 * One `--filter`: a JSON filter object (`{"or": [...]}`), or `column:operator:value` (the value is
 * everything after the second colon, so addresses keep theirs).
 */
export function parseFilter(text: string, columns: readonly TableColumn[]): Filter {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch (err) {
      throw new UsageError(`--filter ${trimmed} is not valid JSON: ${(err as Error).message}`)
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('a JSON --filter is an object, e.g. {"vendor": ["eq", "cisco"]}')
    return parsed as Filter
  }
  const first = trimmed.indexOf(':')
  const second = first < 0 ? -1 : trimmed.indexOf(':', first + 1)
  if (first <= 0 || second < 0) throw new UsageError(`--filter "${text}" is not column:operator:value (e.g. vendor:eq:cisco) or a JSON filter object`)
  const name = trimmed.slice(0, first)
  const operator = trimmed.slice(first + 1, second)
  const column = columns.find((c) => c.name === name)
  return { [name]: [operator, typedValue(column, operator, trimmed.slice(second + 1))] }
}

/** Every --filter ANDed into one filter object (undefined when none). */
export function combineFilters(filters: readonly Filter[]): Filter | undefined {
  if (filters.length === 0) return undefined
  if (filters.length === 1) return filters[0]
  return { and: [...filters] }
}

/** `--sort hostname`, `hostname:desc` or `-hostname`. */
export function parseSort(text: string): { column: string; order: 'asc' | 'desc' } {
  const descending = text.startsWith('-')
  const [column = '', order = descending ? 'desc' : 'asc', ...rest] = text.replace(/^-/, '').split(':')
  if (column === '' || rest.length > 0 || (order !== 'asc' && order !== 'desc')) throw new UsageError(`--sort "${text}" is not column, column:asc, column:desc or -column`)
  return { column, order }
}

/** Rows per page when a command pages through every row (the limit clients of this API use). */
export const PAGE_SIZE = 1000

/**
 * Pages of `body` from `start` until `limit` rows (every row when undefined) or a short page;
 * `onPage` gets each page as it comes. Returns the count of matching rows.
 */
export async function pageThrough(
  client: ApiClient,
  path: string,
  body: Record<string, unknown>,
  range: { start: number; limit?: number; pageSize?: number },
  onPage: (rows: Row[], page: Page) => void | Promise<void>,
): Promise<number> {
  const pageSize = range.pageSize ?? PAGE_SIZE
  let start = range.start
  let left = range.limit ?? Infinity
  for (;;) {
    const limit = Math.min(pageSize, left)
    const page = await client.json<Page>('POST', `tables/${path}`, { ...body, pagination: { start, limit } })
    await onPage(page.data, page)
    left -= page.data.length
    start += page.data.length
    if (page.data.length < limit || left <= 0 || start >= page._meta.count) return page._meta.count
  }
}
