/** Custom intent rules in the inventory schema (built-in rules live in code). */
import { randomUUID } from 'node:crypto'
import type { Db } from '../../shared/db/index.js'
import type { RuleInput } from './compile.js'
import type { ReportRule } from './types.js'

interface Row {
  id: string
  name: string
  table_path: string
  column_name: string
  default_color: number | null
  checks: ReportRule['checks']
  descriptions: ReportRule['descriptions']
  groups: string[]
}

function toRule(row: Row): ReportRule {
  return {
    id: row.id,
    name: row.name,
    tablePath: row.table_path,
    column: row.column_name,
    custom: true,
    defaultColor: row.default_color,
    checks: row.checks,
    descriptions: row.descriptions,
    groups: row.groups,
  }
}

const COLUMNS = 'id, name, table_path, column_name, default_color, checks, descriptions, groups'

export class RuleStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<ReportRule[]> {
    const r = await this.db.query<Row>(`SELECT ${COLUMNS} FROM inventory.report_rules ORDER BY created_at, id`)
    return r.rows.map(toRule)
  }

  async get(id: string): Promise<ReportRule | undefined> {
    const r = await this.db.query<Row>(`SELECT ${COLUMNS} FROM inventory.report_rules WHERE id = $1`, [id])
    return r.rows[0] ? toRule(r.rows[0]) : undefined
  }

  async create(input: RuleInput, createdBy: string | null): Promise<ReportRule> {
    const id = randomUUID()
    const at = this.now()
    await this.db.query(
      `INSERT INTO inventory.report_rules (${COLUMNS}, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10, $10)`,
      [id, input.name, input.tablePath, input.column, input.defaultColor, JSON.stringify(input.checks), JSON.stringify(input.descriptions), JSON.stringify(input.groups), createdBy, at],
    )
    return { ...input, id, custom: true }
  }

  async update(id: string, input: RuleInput): Promise<ReportRule | undefined> {
    const r = await this.db.query(
      `UPDATE inventory.report_rules SET name = $2, table_path = $3, column_name = $4, default_color = $5, checks = $6::jsonb, descriptions = $7::jsonb, groups = $8::jsonb, updated_at = $9 WHERE id = $1`,
      [id, input.name, input.tablePath, input.column, input.defaultColor, JSON.stringify(input.checks), JSON.stringify(input.descriptions), JSON.stringify(input.groups), this.now()],
    )
    return r.rowCount > 0 ? { ...input, id, custom: true } : undefined
  }

  async remove(id: string): Promise<boolean> {
    const r = await this.db.query('DELETE FROM inventory.report_rules WHERE id = $1', [id])
    return r.rowCount > 0
  }
}
