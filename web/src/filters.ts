/**
 * The filter builder's model and its translation to and from the API's filter object:
 * `{"<column>": [op, value]}`, `{"<column>": ["color" | "column" | "any" | "all", op, value]}`,
 * `{"and": [...]}`, `{"or": [...]}` (docs/tables.md).
 */
import type { Column } from './types'

export type Mode = 'value' | 'color' | 'column' | 'any' | 'all'
export interface Condition {
  kind: 'cond'
  column: string
  mode: Mode
  op: string
  value: string
}
export interface Group {
  kind: 'group'
  join: 'and' | 'or'
  items: Array<Condition | Group>
}
export type FilterObject = Record<string, unknown>

export const COLOR_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte']

export function emptyGroup(join: 'and' | 'or' = 'and'): Group {
  return { kind: 'group', join, items: [] }
}

const NUMERIC = new Set(['number', 'integer'])

/** The operators a column takes for a mode (from its description). */
export function operatorsFor(column: Column | undefined, mode: Mode): string[] {
  if (mode === 'color') return COLOR_OPS
  const ops = column?.operators ?? ['eq', 'neq', 'like']
  const anyAll = ops.find((o) => o.startsWith('any/all:'))
  if (mode === 'any' || mode === 'all') return anyAll ? anyAll.slice('any/all:'.length).split(',').map((s) => s.trim()) : []
  return ops.filter((o) => !o.startsWith('any/all:'))
}

function typed(value: string, column: Column | undefined, c: Condition): unknown {
  if (c.mode === 'column') return value
  if (c.mode === 'color') return Number(value)
  if (c.op === 'empty') return value === 'true'
  if (c.op === 'cidr') return value
  const type = c.mode === 'any' || c.mode === 'all' ? (column?.type ?? '').replace(/Array$/, '') : (column?.type ?? '')
  if (NUMERIC.has(type) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value)
  if (type === 'boolean') return value === 'true'
  return value
}

function nodeToApi(node: Condition | Group, columns: Column[]): FilterObject {
  if (node.kind === 'group') return { [node.join]: node.items.map((i) => nodeToApi(i, columns)) }
  const column = columns.find((c) => c.name === node.column)
  const v = typed(node.value, column, node)
  return { [node.column]: node.mode === 'value' ? [node.op, v] : [node.mode, node.op, v] }
}

export function toApi(root: Group, columns: Column[]): FilterObject {
  if (root.items.length === 0) return {}
  return nodeToApi(root, columns)
}

function condFrom(column: string, spec: unknown): Condition | null {
  if (!Array.isArray(spec)) return null
  if (spec.length === 3 && ['color', 'column', 'any', 'all'].includes(String(spec[0]))) {
    return { kind: 'cond', column, mode: spec[0] as Mode, op: String(spec[1]), value: String(spec[2]) }
  }
  if (spec.length === 2) return { kind: 'cond', column, mode: 'value', op: String(spec[0]), value: String(spec[1]) }
  return null
}

function groupFrom(join: 'and' | 'or', list: unknown): Group {
  const items: Array<Condition | Group> = []
  for (const o of Array.isArray(list) ? list : []) {
    const g = fromApi(o)
    // One condition or one group per filter object, as the builder writes them.
    if (g.items.length === 1) items.push(g.items[0]!)
    else if (g.items.length > 1) items.push(g)
  }
  return { kind: 'group', join, items }
}

/** The builder's model of an API filter object (an object of several keys is an `and`). */
export function fromApi(obj: unknown): Group {
  const root = emptyGroup('and')
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return root
  const entries = Object.entries(obj as FilterObject)
  if (entries.length === 1 && (entries[0]![0] === 'and' || entries[0]![0] === 'or')) return groupFrom(entries[0]![0], entries[0]![1])
  for (const [key, spec] of entries) {
    if (key === 'and' || key === 'or') root.items.push(groupFrom(key, spec))
    else {
      const c = condFrom(key, spec)
      if (c) root.items.push(c)
    }
  }
  return root
}

export function parseFilters(text: string | null): FilterObject {
  if (!text) return {}
  try {
    const v: unknown = JSON.parse(text)
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as FilterObject) : {}
  } catch {
    return {}
  }
}
