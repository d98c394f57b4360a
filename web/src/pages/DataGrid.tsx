import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type ReactNode } from 'react'
import type { Cell, Row } from '../types'

/**
 * Pages up to this many rows are in the document whole (the browser's find and print see every
 * row); longer ones (500, 1,000) are virtualised: only the rows in view, plus some either side,
 * are rendered, between two spacer rows that keep the scroll height. Rows have one fixed height
 * (cells do not wrap; a compare row lists its changes on one line): measuring rendered rows
 * forces the browser to lay the page out again and again. The spacers' heights are
 * written through the CSS object model (React's `style` prop sets element.style), which the
 * page's policy (`style-src 'self'`) allows, unlike style attributes in HTML.
 */
export const WHOLE_UP_TO = 100
/** Every row is one line of this height (styles.css: table.data rows); nothing is measured. */
const ROW_HEIGHT = 30
const OVERSCAN = 12

export interface Sort {
  column: string
  order: 'asc' | 'desc'
}

export function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(text).join(', ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function isCell(v: unknown): v is Cell {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'severity' in v && 'data' in v
}

type Diff = Record<string, { old: unknown; new: unknown }> | null | undefined

function CellView(props: { row: Row; column: string }): ReactNode {
  const raw = props.row[props.column]
  const changed = (props.row.diff as Diff)?.[props.column]
  if (changed) {
    return (
      <td className="changed">
        <del>{text(changed.old)}</del> → <ins>{text(changed.new)}</ins>
      </td>
    )
  }
  if (isCell(raw)) return <td className={`sev-${raw.severity}`}>{text(raw.data)}</td>
  return <td>{text(raw)}</td>
}

function DiffSummary(props: { row: Row }): ReactNode {
  const diff = props.row.diff as Diff
  if (!diff) return <td />
  return (
    <td className="diff">
      {Object.entries(diff).map(([column, d]) => (
        <span key={column} className="change">
          <span className="muted">{column}:</span> <del>{text(d.old)}</del> → <ins>{text(d.new)}</ins>
        </span>
      ))}
    </td>
  )
}

function DataRow(props: { row: Row; index: number; columns: string[]; compare: boolean }): ReactNode {
  const { row } = props
  return (
    <tr aria-rowindex={props.index + 2} className={row.change ? `change-${String(row.change)}` : undefined}>
      {props.compare && <td>{text(row.change)}</td>}
      {props.compare && <DiffSummary row={row} />}
      {props.columns.map((c) => (
        <CellView key={c} row={row} column={c} />
      ))}
    </tr>
  )
}

function rowKey(row: Row, i: number): string {
  return String(row.id ?? i) + String(row.change ?? '')
}

/**
 * The rows of a table page: a header whose buttons sort, then the rows (virtualised past
 * WHOLE_UP_TO). The scrolling region takes the keyboard focus (arrows, Page Up/Down, Home/End)
 * and has a name; aria-rowcount and aria-rowindex tell assistive technology which rows of the
 * page are shown.
 */
export function DataGrid(props: { rows: Row[]; columns: string[]; compare: boolean; sort: Sort; busy: boolean; onSort: (column: string) => void; label: string }): ReactNode {
  const { rows } = props
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = rows.length > WHOLE_UP_TO
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (i) => rowKey(rows[i] ?? {}, i),
    initialRect: { width: 1280, height: typeof window === 'undefined' ? 800 : window.innerHeight },
  })
  // A new page starts at its top. The position is noted as it scrolls: reading or setting
  // scrollTop otherwise would make the browser lay the page out before it is due.
  const scrolled = useRef(0)
  useEffect(() => {
    if (scroller.current && scrolled.current > 0) scroller.current.scrollTop = 0
  }, [rows])

  const items = virtual ? virtualizer.getVirtualItems() : []
  const before = items[0]?.start ?? 0
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0
  const span = props.columns.length + (props.compare ? 2 : 0)
  return (
    <div ref={scroller} className={virtual ? 'scroll rows virtual' : 'scroll rows'} role="region" aria-label={props.label} tabIndex={0} onScroll={(e) => (scrolled.current = e.currentTarget.scrollTop)}>
      <table className="grid data" aria-busy={props.busy} aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {props.compare && <th scope="col">change</th>}
            {props.compare && <th scope="col">what changed (old → new)</th>}
            {props.columns.map((c) => {
              const active = props.sort.column === c
              return (
                <th key={c} scope="col" aria-sort={active ? (props.sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="sort" onClick={() => props.onSort(c)}>
                    {c}
                    <span aria-hidden="true">{active ? (props.sort.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {virtual ? (
            <>
              {before > 0 && (
                <tr className="spacer" aria-hidden="true">
                  <td colSpan={span} style={{ height: before }} />
                </tr>
              )}
              {items.map((item) => (
                <DataRow key={item.key} row={rows[item.index]!} index={item.index} columns={props.columns} compare={props.compare} />
              ))}
              {after > 0 && (
                <tr className="spacer" aria-hidden="true">
                  <td colSpan={span} style={{ height: after }} />
                </tr>
              )}
            </>
          ) : (
            rows.map((row, i) => <DataRow key={rowKey(row, i)} row={row} index={i} columns={props.columns} compare={props.compare} />)
          )}
        </tbody>
      </table>
    </div>
  )
}
