import { useState, type ReactNode } from 'react'
import { emptyGroup, operatorsFor, type Condition, type Group, type Mode } from '../filters'
import { SEVERITIES, type Column } from '../types'

interface Props {
  initial: Group
  columns: Column[]
  colors: boolean
  /** With Apply and Clear buttons that call it (the explorer). */
  onApply?: (g: Group) => void
  /** Without buttons: every change is handed over at once (a form the builder is part of). */
  onChange?: (g: Group) => void
  label?: string
}

export function FilterBuilder(props: Props): ReactNode {
  const [root, setRoot] = useState<Group>(props.initial)
  const { onApply, onChange } = props
  const change = (g: Group): void => {
    setRoot(g)
    onChange?.(g)
  }
  return (
    <section className="filters card" aria-label={props.label ?? 'Filters'}>
      <GroupEditor group={root} depth={0} columns={props.columns} colors={props.colors} onChange={change} />
      {onApply && <div className="actions">
        <button type="button" className="primary" onClick={() => onApply(root)}>
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setRoot(emptyGroup())
            onApply(emptyGroup())
          }}
        >
          Clear
        </button>
      </div>}
    </section>
  )
}

function newCondition(columns: Column[]): Condition {
  const c = columns.find((x) => x.name !== 'id') ?? columns[0]
  return { kind: 'cond', column: c?.name ?? '', mode: 'value', op: operatorsFor(c, 'value')[0] ?? 'eq', value: '' }
}

function GroupEditor(props: { group: Group; depth: number; columns: Column[]; colors: boolean; onChange: (g: Group) => void; onRemove?: () => void }): ReactNode {
  const { group } = props
  const set = (items: Group['items']): void => props.onChange({ ...group, items })
  return (
    <fieldset className={`group depth-${props.depth % 2}`}>
      <legend>
        <label>
          <span className="sr-only">Rows must match</span>
          <select aria-label={props.depth === 0 ? 'Rows must match' : 'Group must match'} value={group.join} onChange={(e) => props.onChange({ ...group, join: e.target.value as 'and' | 'or' })}>
            <option value="and">all of (and)</option>
            <option value="or">any of (or)</option>
          </select>
        </label>
        {props.onRemove && (
          <button type="button" className="link" onClick={props.onRemove}>
            Remove group
          </button>
        )}
      </legend>
      {group.items.length === 0 && <p className="muted">No condition: every row.</p>}
      {group.items.map((item, i) => {
        const change = (next: Condition | Group): void => set(group.items.map((x, j) => (j === i ? next : x)))
        const remove = (): void => set(group.items.filter((_, j) => j !== i))
        return item.kind === 'group' ? (
          <GroupEditor key={i} group={item} depth={props.depth + 1} columns={props.columns} colors={props.colors} onChange={change} onRemove={remove} />
        ) : (
          <ConditionEditor key={i} cond={item} columns={props.columns} colors={props.colors} onChange={change} onRemove={remove} />
        )
      })}
      <div className="actions">
        <button type="button" onClick={() => set([...group.items, newCondition(props.columns)])}>
          + Condition
        </button>
        <button type="button" onClick={() => set([...group.items, { ...emptyGroup(group.join === 'and' ? 'or' : 'and'), items: [newCondition(props.columns)] }])}>
          + Group
        </button>
      </div>
    </fieldset>
  )
}

function ConditionEditor(props: { cond: Condition; columns: Column[]; colors: boolean; onChange: (c: Condition) => void; onRemove: () => void }): ReactNode {
  const { cond, columns } = props
  const column = columns.find((c) => c.name === cond.column)
  const isArray = column?.type.endsWith('Array') ?? false
  const modes: Mode[] = ['value', ...(props.colors ? (['color'] as Mode[]) : []), 'column', ...(isArray ? (['any', 'all'] as Mode[]) : [])]
  const ops = operatorsFor(column, cond.mode)
  const update = (patch: Partial<Condition>): void => {
    const next = { ...cond, ...patch }
    const nextColumn = columns.find((c) => c.name === next.column)
    const allowed = operatorsFor(nextColumn, next.mode)
    if (!allowed.includes(next.op)) next.op = allowed[0] ?? 'eq'
    props.onChange(next)
  }
  return (
    <div className="condition">
      <select aria-label="Column" value={cond.column} onChange={(e) => update({ column: e.target.value, mode: 'value' })}>
        {columns.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
      <select aria-label="Compare with" value={cond.mode} onChange={(e) => update({ mode: e.target.value as Mode, value: e.target.value === 'color' ? '30' : '' })}>
        {modes.map((m) => (
          <option key={m} value={m}>
            {m === 'value' ? 'value' : m === 'color' ? 'colour' : m === 'column' ? 'other column' : `${m} element`}
          </option>
        ))}
      </select>
      <select aria-label="Operator" value={cond.op} onChange={(e) => update({ op: e.target.value })}>
        {ops.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
      {cond.mode === 'color' ? (
        <select aria-label="Colour" value={cond.value} onChange={(e) => update({ value: e.target.value })}>
          {SEVERITIES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.name} ({s.value})
            </option>
          ))}
        </select>
      ) : cond.mode === 'column' ? (
        <select aria-label="Other column" value={cond.value} onChange={(e) => update({ value: e.target.value })}>
          <option value="">choose…</option>
          {columns.map((c) => (
            <option key={c.name}>{c.name}</option>
          ))}
        </select>
      ) : cond.op === 'empty' ? (
        <select aria-label="Value" value={cond.value || 'true'} onChange={(e) => update({ value: e.target.value })}>
          <option value="true">is empty</option>
          <option value="false">is not empty</option>
        </select>
      ) : (
        <input aria-label="Value" value={cond.value} placeholder={cond.op === 'cidr' ? '10.0.0.0/8' : (column?.values?.join(', ') ?? 'value')} list={column?.values ? `values-${column.name}` : undefined} onChange={(e) => update({ value: e.target.value })} />
      )}
      {column?.values && (
        <datalist id={`values-${column.name}`}>
          {column.values.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      )}
      <button type="button" className="link" onClick={props.onRemove} aria-label={`Remove condition on ${cond.column}`}>
        Remove
      </button>
    </div>
  )
}
