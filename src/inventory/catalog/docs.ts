/** docs/tables.md, generated from the catalog (a test keeps the file in step). */
import { TABLES } from './index.js'
import type { TableDef } from './types.js'

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function section(t: TableDef): string {
  const lines = [
    `## ${t.title}: \`${t.path}\``,
    '',
    t.description,
    '',
    `- Endpoint: \`POST /api/tables/${t.path}\`${t.legacyPaths?.length ? ` (also ${t.legacyPaths.map((p) => `\`${p}\``).join(', ')})` : ''}`,
    `- Snapshot: ${t.snapshotScoped ? 'required (`snapshot` in the body)' : 'none (the body has no `snapshot` key)'}`,
    `- Default sort: \`${t.defaultSort.column} ${t.defaultSort.order}\``,
    `- Web path: \`${t.webPath}\``,
    '',
    '| Column | Type | Meaning |',
    '|---|---|---|',
    ...t.columns.map((c) => `| \`${c.name}\` | ${c.type} | ${cell(c.description)}${c.values ? ` Values: ${c.values.map((v) => `\`${v}\``).join(', ')}.` : ''} |`),
    '',
  ]
  return lines.join('\n')
}

export function renderTablesDoc(): string {
  return [
    '# Tables',
    '',
    '<!-- Generated from the table catalog by renderTablesDoc() (src/inventory/catalog/docs.ts); do not edit by hand. -->',
    '',
    'Every table of the API, its columns and their types. Types: `string`, `integer`, `number`,',
    '`boolean`, `timestamp` (ms since the epoch), `ip` (address), `network` (CIDR), `mac`,',
    '`stringArray`, `json` (nested values, e.g. route next hops).',
    '',
    ...TABLES.map(section),
  ].join('\n')
}
