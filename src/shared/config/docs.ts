/**
 * The configuration reference of docs/operations.md, rendered from CONFIG_SCHEMA, and the
 * helpers that replace a generated region of a text file. A test fails when a committed file
 * differs from what these render; `npm run docs` rewrites them.
 */
import { CONFIG_SCHEMA } from './schema.js'
import { leaves, type SchemaNode } from './schema-types.js'
import { chartConfigSchema, configJsonSchema, configValuesYaml, upstreamsJsonSchema } from './helm.js'
import { SCOPES } from '../manifest.js'

/** Table-cell text: pipes escaped, and `<`/`>` outside code spans so that <endpoint> stays visible. */
function cell(text: string): string {
  return text
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;').replace(/>/g, '&gt;') : part))
    .join('`')
}

function code(value: unknown): string {
  if (value === null) return '`null`'
  return '`' + JSON.stringify(value) + '`'
}

/** A short human type of a node: "integer 10–86400", "RFC 3339 date-time or null", ... */
export function typeOf(node: SchemaNode): string {
  switch (node.type) {
    case 'integer': {
      const orNull = node.default === null ? ' or null' : ''
      if (node.min !== undefined && node.max !== undefined) return `integer ${node.min}–${node.max}${orNull}`
      if (node.min !== undefined) return `integer ≥ ${node.min}${orNull}`
      if (node.max !== undefined) return `integer ≤ ${node.max}${orNull}`
      return `integer${orNull}`
    }
    case 'boolean':
      return 'boolean'
    case 'string':
      if (node.enum) return `one of ${node.enum.map((v) => '`' + v + '`').join(', ')}`
      return node.pattern ? `string matching \`${node.pattern.source}\`` : 'string'
    case 'datetime':
      return 'RFC 3339 date-time or null'
    case 'stringList':
      return node.pattern ? `list of strings matching \`${node.pattern.source}\`` : 'list of strings'
    case 'integerMap':
      return `map of endpoint → integer${node.min !== undefined ? ` ≥ ${node.min}` : ''}`
    case 'object':
      return 'object'
    case 'record': {
      if (node.expand !== undefined) return `map of \`${node.keyPattern?.source ?? 'key'}\` → object (keys below)`
      const fields = Object.entries(node.values.properties)
        .map(([k, v]) => `\`${k}\` (${typeOf(v)})`)
        .join(', ')
      return `map of \`${node.keyPattern?.source ?? 'key'}\` → { ${fields} }`
    }
  }
}

function defaultOf(node: SchemaNode): string {
  return node.type === 'object' ? '' : code(node.default)
}

/** The Markdown table of every leaf key of api.json: key, type, default, meaning. */
export function renderConfigReference(schema: SchemaNode = CONFIG_SCHEMA): string {
  const rows = leaves(schema).map(
    ({ key, node }) => `| \`${key}\` | ${cell(typeOf(node))} | ${cell(defaultOf(node))} | ${cell(node.description)} |`,
  )
  return ['| Key | Type | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n')
}

export class RegionError extends Error {}

/**
 * Replaces the lines strictly between the line containing `begin` and the line containing
 * `end` with `content` (lines), keeping both marker lines.
 */
export function replaceRegion(text: string, begin: string, end: string, content: string): string {
  const lines = text.split('\n')
  const from = lines.findIndex((l) => l.includes(begin))
  const to = lines.findIndex((l, i) => i > from && l.includes(end))
  if (from < 0 || to < 0) throw new RegionError(`markers "${begin}" … "${end}" not found`)
  return [...lines.slice(0, from + 1), ...(content === '' ? [] : content.split('\n')), ...lines.slice(to)].join('\n')
}

/** The markers of the generated region in docs/operations.md. */
export const OPERATIONS_MARKERS = {
  begin: '<!-- BEGIN GENERATED CONFIG REFERENCE',
  end: '<!-- END GENERATED CONFIG REFERENCE -->',
} as const

/** The markers of the generated `config:` block in helm/netinv/values.yaml. */
export const VALUES_MARKERS = { begin: '# BEGIN GENERATED CONFIG', end: '# END GENERATED CONFIG' } as const

export interface GeneratedFile {
  path: string
  /** What the file must contain, computed from its current text. */
  expected: string
}

/**
 * Every file with generated parts, relative to the repository root: the configuration reference
 * of docs/operations.md, the `config:` defaults of the chart's values.yaml and the `config`
 * subtree of its values.schema.json.
 */
export function generatedFiles(read: (path: string) => string): GeneratedFile[] {
  const ops = 'docs/operations.md'
  const values = 'helm/netinv/values.yaml'
  const schema = 'helm/netinv/values.schema.json'
  const json = JSON.parse(read(schema)) as { properties: Record<string, unknown> }
  json.properties.config = configJsonSchema(chartConfigSchema(CONFIG_SCHEMA))
  json.properties.upstreams = upstreamsJsonSchema(CONFIG_SCHEMA, SCOPES)
  return [
    {
      path: ops,
      expected: replaceRegion(read(ops), OPERATIONS_MARKERS.begin, OPERATIONS_MARKERS.end, renderConfigReference()),
    },
    {
      path: values,
      expected: replaceRegion(read(values), VALUES_MARKERS.begin, VALUES_MARKERS.end, configValuesYaml(chartConfigSchema(CONFIG_SCHEMA)).join('\n')),
    },
    { path: schema, expected: JSON.stringify(json, null, 2) + '\n' },
  ]
}
