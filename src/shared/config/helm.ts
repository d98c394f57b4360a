/**
 * The configuration schema as the Helm chart sees it: the JSON Schema of the chart's `config`
 * value (embedded in `helm/netinv/values.schema.json`) and the commented `config:` block of
 * `helm/netinv/values.yaml`. Both are derived from CONFIG_SCHEMA so that the chart rejects
 * what the product would reject, and tests keep the chart files in step.
 */
import type { SchemaNode } from './schema-types.js'

/**
 * RFC 3339 date-time with range-checked fields (RE2-compatible, for Helm's validator). Never
 * looser than the product's check; stricter on hour 24 and leap seconds, which Date.parse takes.
 */
export const RFC3339_PATTERN =
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$'

export type JsonSchema = Record<string, unknown>

/** JSON Schema (draft 7 vocabulary) of one node of CONFIG_SCHEMA. */
export function configJsonSchema(node: SchemaNode): JsonSchema {
  const d = { description: node.description }
  switch (node.type) {
    case 'integer':
      return {
        type: node.default === null ? ['integer', 'null'] : 'integer',
        ...d,
        default: node.default,
        ...(node.min !== undefined ? { minimum: node.min } : {}),
        ...(node.max !== undefined ? { maximum: node.max } : {}),
      }
    case 'boolean':
      return { type: 'boolean', ...d, default: node.default }
    case 'string':
      return {
        type: 'string',
        ...d,
        default: node.default,
        ...(node.enum ? { enum: [...node.enum] } : {}),
        ...(node.pattern ? { pattern: node.pattern.source } : {}),
      }
    case 'datetime':
      return {
        ...d,
        default: node.default,
        oneOf: [{ type: 'null' }, { type: 'string', format: 'date-time', pattern: RFC3339_PATTERN }],
      }
    case 'stringList':
      return {
        type: 'array',
        ...d,
        default: [...node.default],
        items: { type: 'string', ...(node.pattern ? { pattern: node.pattern.source } : {}) },
      }
    case 'integerMap':
      return {
        type: 'object',
        ...d,
        default: { ...node.default },
        ...(node.keyPattern ? { propertyNames: { pattern: node.keyPattern.source } } : {}),
        additionalProperties: { type: 'integer', ...(node.min !== undefined ? { minimum: node.min } : {}) },
      }
    case 'object':
      return {
        type: 'object',
        ...d,
        additionalProperties: false,
        properties: Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, configJsonSchema(v)])),
      }
    case 'record':
      return {
        type: 'object',
        ...d,
        default: { ...node.default },
        ...(node.keyPattern ? { propertyNames: { pattern: node.keyPattern.source } } : {}),
        additionalProperties: configJsonSchema(node.values),
      }
  }
}

function yamlScalar(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(yamlScalar).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${yamlScalar(v)}`).join(', ')} }`
  }
  return String(value)
}

function comment(text: string, pad: string, width = 100): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && pad.length + 2 + line.length + 1 + word.length > width) {
      lines.push(`${pad}# ${line}`)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(`${pad}# ${line}`)
  return lines
}

function bounds(node: SchemaNode): string {
  if (node.type !== 'integer') return ''
  const parts = [node.min !== undefined ? `min ${node.min}` : '', node.max !== undefined ? `max ${node.max}` : ''].filter(Boolean)
  return parts.length ? ` (${parts.join(', ')})` : ''
}

/** The commented YAML of a node's defaults, indented by `depth` levels of two spaces. */
export function configValuesYaml(node: SchemaNode & { type: 'object' }, depth = 1): string[] {
  const pad = '  '.repeat(depth)
  const out: string[] = []
  for (const [key, child] of Object.entries(node.properties)) {
    out.push(...comment(child.description + bounds(child), pad))
    if (child.type === 'object') {
      out.push(`${pad}${key}:`, ...configValuesYaml(child, depth + 1))
    } else {
      out.push(`${pad}${key}: ${yamlScalar(child.default)}`)
    }
  }
  return out
}

/**
 * The chart's view of the product's schema: `upstreams` is not under `config:` but a top-level
 * value of its own (see upstreamsJsonSchema), where each backend also carries its routes and its
 * secret; the chart merges it into api.json.
 */
export function chartConfigSchema(schema: SchemaNode & { type: 'object' }): SchemaNode & { type: 'object' } {
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => key !== 'upstreams'))
  return { ...schema, properties }
}

/** JSON Schema of one route entry of a route file, as the chart's `upstreams.<name>.routes` holds it (without `upstream`). */
function routeEntryJsonSchema(scopes: readonly string[]): JsonSchema {
  const access = { type: 'string', enum: ['public', 'authenticated', ...scopes] }
  const release = { type: 'string', pattern: '^[0-9]{1,3}\\.[0-9]{1,3}$' }
  return {
    type: 'object',
    description: 'An endpoint of the backend: the keys of an entry of CONFIG_DIR/routes/<name>.json (docs/operations.md), without `upstream`.',
    additionalProperties: false,
    required: ['path', 'methods', 'description'],
    properties: {
      path: { type: 'string', description: 'Path pattern after the generation prefix (`:name` one segment, `*` the rest).', pattern: '^[^/].*$' },
      methods: {
        type: 'object',
        description: 'Method → access rule.',
        minProperties: 1,
        additionalProperties: false,
        properties: Object.fromEntries(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, access])),
      },
      versions: {
        type: 'array',
        description: 'Endpoint versions (default: version 1 only).',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['version', 'summary'],
          properties: {
            version: { type: 'integer', minimum: 1 },
            summary: { type: 'string' },
            deprecated: { type: 'object', additionalProperties: false, properties: { sunset: { oneOf: [{ type: 'null' }, { type: 'string', pattern: RFC3339_PATTERN }] } } },
          },
        },
      },
      defaultVersion: { type: 'integer', minimum: 1, description: 'Version of a request without X-API-Version (default 1).' },
      releases: { type: 'array', description: 'Ascending ["<major>.<minor>", version] pairs.', items: { type: 'array', minItems: 2, maxItems: 2, items: [release, { type: 'integer', minimum: 1 }] } },
      legacyAliases: { type: 'array', description: 'v4-era camelCase paths.', items: { type: 'string' } },
      upload: { type: 'boolean', description: 'The body may be as large as server.uploadLimitBytes.' },
      description: { type: 'string', description: 'The endpoint\'s line in the API versions document.' },
    },
  }
}

/**
 * JSON Schema of the chart's top-level `upstreams` value: per backend, the keys of api.json
 * `upstreams.<name>`, plus `routes` (rendered into CONFIG_DIR/routes/<name>.json) and `secret`
 * (an existing Secret mounted at /etc/netinv/upstreams/<name>/).
 */
export function upstreamsJsonSchema(schema: SchemaNode & { type: 'object' }, scopes: readonly string[]): JsonSchema {
  const node = schema.properties.upstreams
  if (node?.type !== 'record') throw new Error('the config schema has no upstreams record')
  const upstream = configJsonSchema(node.values) as { properties: Record<string, JsonSchema> }
  return {
    type: 'object',
    description: `${node.description} The chart renders each one into api.json, its routes into CONFIG_DIR/routes/<name>.json, and mounts its secret.`,
    default: {},
    ...(node.keyPattern ? { propertyNames: { pattern: node.keyPattern.source } } : {}),
    additionalProperties: {
      ...upstream,
      properties: {
        ...upstream.properties,
        routes: { type: 'array', description: 'The endpoints the backend serves.', items: routeEntryJsonSchema(scopes) },
        secret: { type: 'string', description: 'An existing Secret whose keys are mounted as files at /etc/netinv/upstreams/<name>/ (the service credential, CA, client certificate) for the gateway only.' },
      },
    },
  }
}
