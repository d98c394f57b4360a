/**
 * The generated parts of docs/operations.md and of the Helm chart's values follow the config
 * schema: a stale file fails here (fix: `npm run docs`).
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { CONFIG_SCHEMA, compileConfig, leaves } from '../../../src/shared/config/index.js'
import {
  generatedFiles,
  renderConfigReference,
  replaceRegion,
  RegionError,
  typeOf,
} from '../../../src/shared/config/docs.js'
import { configJsonSchema, RFC3339_PATTERN } from '../../../src/shared/config/helm.js'

const read = (path: string) => readFileSync(path, 'utf8')

t.test('generated files are up to date (run `npm run docs` when this fails)', async (t) => {
  for (const { path, expected } of generatedFiles(read)) {
    t.equal(read(path), expected, `${path} matches the config schema`)
  }
})

t.test('the reference lists every key with its default and description', async (t) => {
  const table = renderConfigReference()
  const all = leaves(CONFIG_SCHEMA)
  t.ok(all.length > 30, 'many keys')
  for (const { key, node } of all) {
    const row = table.split('\n').find((l) => l.startsWith(`| \`${key}\` |`))
    t.ok(row, `${key} has a row`)
    t.ok(row?.includes(node.description.slice(0, 40).replace(/\|/g, '\\|')), `${key} row has its description`)
    if (node.type !== 'object') t.ok(row?.includes('`' + JSON.stringify(node.default) + '`') || node.default === null, `${key} default`)
  }
  t.match(read('docs/operations.md'), '| `versioning.generations.path.sunset` |', 'the committed doc has the sunset key')
})

t.test('types read like the validator behaves', async (t) => {
  t.equal(typeOf({ type: 'integer', default: 1, min: 10, max: 20, description: '' }), 'integer 10–20')
  t.equal(typeOf({ type: 'integer', default: 1, min: 0, description: '' }), 'integer ≥ 0')
  t.equal(typeOf({ type: 'datetime', default: null, description: '' }), 'RFC 3339 date-time or null')
})

t.test('replaceRegion keeps the markers and replaces what is between them', async (t) => {
  const text = 'a\n<!-- B -->\nold\nold\n<!-- E -->\nz'
  t.equal(replaceRegion(text, '<!-- B', '<!-- E', 'new'), 'a\n<!-- B -->\nnew\n<!-- E -->\nz')
  t.equal(replaceRegion(text, '<!-- B', '<!-- E', ''), 'a\n<!-- B -->\n<!-- E -->\nz')
  let thrown: unknown
  try {
    replaceRegion('no markers', '<!-- B', '<!-- E', 'x')
  } catch (err) {
    thrown = err
  }
  t.ok(thrown instanceof RegionError, 'missing markers are an error')
})

t.test("the chart's date-time pattern never lets through what the product refuses", async (t) => {
  const pattern = new RegExp(RFC3339_PATTERN)
  const samples = [
    '2026-02-01T00:00:00Z',
    '2027-06-30T23:59:59.123+02:00',
    '2026-12-31T12:00:00-05:30',
    '2026-13-01T00:00:00Z',
    '2026-02-01',
    '2026-02-01 00:00:00Z',
    '2026-02-01T23:59:60Z',
    '2026-02-01T00:60:00Z',
    'tomorrow',
  ]
  for (const s of samples) {
    let product = true
    try {
      compileConfig({ versioning: { generations: { path: { sunset: s } } } })
    } catch {
      product = false
    }
    t.equal(pattern.test(s), product, `${s}: chart ${pattern.test(s)}, product ${product}`)
  }
  // Stricter than the product where Date.parse is lenient: hour 24 is not RFC 3339.
  t.notOk(pattern.test('2026-02-01T24:00:00Z'), 'hour 24 refused by the chart')
})

t.test('the JSON schema carries the bounds of every integer key', async (t) => {
  const schema = configJsonSchema(CONFIG_SCHEMA)
  for (const { key, node } of leaves(CONFIG_SCHEMA)) {
    let at: Record<string, unknown> = schema
    // `<name>` of an expanded record: its values' schema.
    for (const part of key.split('.')) at = part.startsWith('<') ? (at.additionalProperties as Record<string, unknown>) : (at.properties as Record<string, Record<string, unknown>>)[part]!
    t.equal(at.description, node.description, `${key}: description`)
    if (node.type === 'integer') {
      t.equal(at.minimum, node.min, `${key}: minimum`)
      t.equal(at.maximum, node.max, `${key}: maximum`)
    }
  }
})

t.test('the operations guide documents every environment variable the product reads', async (t) => {
  const names = new Set([...read('src/shared/env.ts').matchAll(/source\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!))
  t.ok(names.size >= 10, 'env.ts read')
  const doc = read('docs/operations.md')
  for (const name of names) t.match(doc, `| \`${name}\` |`, `${name} has a row in the environment table`)
})

t.test('the operations guide points at every example values file of the chart', async (t) => {
  const doc = read('docs/operations.md')
  for (const file of ['minimal', 'production', 'legacy-clients']) t.match(doc, `helm/netinv/examples/${file}.yaml`)
})
