/**
 * What ops tune reaches the product: the ConfigMap's api.json passes the product's own config
 * validator, carries what values set, and the chart's schema refuses what the product would
 * refuse (before anything reaches a cluster).
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { compileConfig, type Config } from '../../src/shared/config/index.js'
import { CHART, EXAMPLES, find, helm, parseManifests, render, templateArgs, type Manifest } from './helm.js'
import { tracingSettings } from '../../src/shared/tracing/index.js'

type Schema = Record<string, unknown>

/** The schema node that validates `key` inside `node` (following $ref), or undefined. */
function child(root: Schema, node: Schema, key: string | number): Schema | undefined {
  const ref = node.$ref
  if (typeof ref === 'string') return child(root, (root.definitions as Record<string, Schema>)[ref.split('/').pop()!]!, key)
  if (typeof key === 'number') return node.items as Schema | undefined
  const props = node.properties as Record<string, Schema> | undefined
  if (props?.[key]) return props[key]
  return typeof node.additionalProperties === 'object' ? (node.additionalProperties as Schema) : undefined
}

function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => paths(v, [...at, i]))]
  if (value && typeof value === 'object') return [at, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))]
  return [at]
}

t.test('values.schema.json describes every value of values.yaml and admits no unknown top-level key', async (t) => {
  const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as Schema
  const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>
  t.equal(schema.additionalProperties, false)
  for (const path of paths(values).slice(1)) {
    let node: Schema | undefined = schema
    for (const key of path) node = node && child(schema, node, key)
    // Kubernetes objects passed through (probes, security contexts, resources) are typed by the
    // API server; ours are typed here.
    t.ok(node, `${path.join('.')} is in the schema`)
  }
  for (const [key, node] of Object.entries(schema.properties as Record<string, Schema>)) {
    t.ok(node.description, `${key} has a description`)
  }
})

function apiJson(ms: Manifest[]): Readonly<Config> {
  const text = find(ms, 'ConfigMap', '-config').data?.['api.json']
  if (text === undefined) throw new Error('ConfigMap has no api.json')
  return compileConfig(JSON.parse(text))
}

t.test("values.yaml's config block is exactly the product's defaults", async (t) => {
  const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as { config: unknown }
  t.same(compileConfig(values.config), compileConfig({}))
  t.same(apiJson(await render()), compileConfig({}), 'rendered with defaults, api.json equals the product defaults')
})

t.test('every example renders an api.json the product accepts, with the example values', async (t) => {
  for (const file of EXAMPLES) {
    const example = parse(readFileSync(join(CHART, file), 'utf8')) as { config?: Record<string, unknown> }
    const config = apiJson(await render([file]))
    t.ok(config, `${file}: accepted by compileConfig`)
    if (example.config) t.match(config, example.config, `${file}: carries the example's settings`)
  }
  const legacy = apiJson(await render(['examples/legacy-clients.yaml']))
  const doc = readFileSync('docs/api-versions.md', 'utf8')
  const recipe = JSON.parse(/## Older clients: one recipe[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)![1]!) as { versioning: { apiVersion: string; generations: { path: unknown } }; rateLimit: { perSecond: number } }
  t.equal(legacy.versioning.apiVersion, recipe.versioning.apiVersion, 'the legacy example is the documented recipe: its apiVersion')
  t.same(legacy.versioning.generations.path, recipe.versioning.generations.path, 'and its path generation sunset')
  t.equal(legacy.rateLimit.perSecond, recipe.rateLimit.perSecond, 'and its per-address limit')
  t.equal(legacy.versioning.oldestRelease, '4.0', 'old releases stay accepted')
  const production = apiJson(await render(['examples/production.yaml']))
  t.equal(production.rateLimit.endpoints['auth/login'], 3)
  t.equal(production.rateLimit.endpoints['auth/token'], 30, 'example overrides merge with the default endpoint limits')
  t.same(production.server.trustedProxies, ['10.42.0.0/16'])
})

t.test('a limit and a sunset date set as values appear in api.json', async (t) => {
  const config = apiJson(
    await render(
      [],
      [
        'config.rateLimit.perSecond=42',
        'config.rateLimit.endpoints.auth/login=2',
        'config.versioning.generations.path.sunset=2027-03-01T12:00:00Z',
        'config.versioning.generations.original.enforce=true',
        'config.app.accessToken.expiresIn=600',
        'config.server.trustedProxies={10.0.0.0/8,192.168.1.1}',
      ],
    ),
  )
  t.equal(config.rateLimit.perSecond, 42)
  t.equal(config.rateLimit.endpoints['auth/login'], 2)
  t.equal(config.rateLimit.endpoints['auth/token'], 20, 'other endpoint limits keep their defaults')
  t.equal(config.versioning.generations.path.sunset, '2027-03-01T12:00:00Z')
  t.equal(config.versioning.generations.original.enforce, true)
  t.equal(config.app.accessToken.expiresIn, 600)
  t.same(config.server.trustedProxies, ['10.0.0.0/8', '192.168.1.1'])
})

/** A container's plain `env` entries of a Deployment, as the process would see them. */
function envOf(ms: Manifest[], suffix: string): NodeJS.ProcessEnv {
  const spec = (find(ms, 'Deployment', suffix).spec as { template: { spec: { containers: Array<{ env?: Array<{ name: string; value?: string }> }> } } }).template.spec
  return Object.fromEntries((spec.containers[0]!.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]))
}

t.test('tracing values reach both services as the settings the product reads', async (t) => {
  const off = await render([])
  t.equal(tracingSettings(envOf(off, '-gateway')), undefined, 'off by default: no endpoint in the gateway')
  t.equal(tracingSettings(envOf(off, '-inventory')), undefined, 'nor in the inventory')
  // --set-json: helm's --set leaves a fraction a string.
  const rendered = await helm([...templateArgs([], []), '--set-json', 'tracing={"endpoint":"http://otel-collector.monitoring:4318","sampleRatio":0.25,"trustTraceparent":true}'])
  t.ok(rendered.ok, rendered.stderr)
  const on = parseManifests(rendered.stdout)
  t.same(tracingSettings(envOf(on, '-gateway')), { url: 'http://otel-collector.monitoring:4318/v1/traces', serviceName: 'netinv-gateway', trustTraceparent: true, sampleRatio: 0.25 })
  t.same(tracingSettings(envOf(on, '-inventory')), { url: 'http://otel-collector.monitoring:4318/v1/traces', serviceName: 'netinv-inventory', trustTraceparent: false, sampleRatio: 0.25 }, 'the inventory continues the gateway trace whatever the client sent')
  for (const [what, set] of [
    ['a tracing endpoint that is not a URL', 'tracing.endpoint=collector:4318'],
    ['a sample ratio above 1', 'tracing.sampleRatio=2'],
  ]) {
    const lint = await helm(['lint', CHART, '--set', set!])
    t.notOk(lint.ok, `helm lint refuses ${what}`)
  }
})

// Each bad value must stop `helm template`, naming the offending key, and (when values.schema.json
// can say it) `helm lint` too; cross-field checks are template `fail`s, which lint only reports.
const BAD: Array<[string, string, RegExp, 'schema' | 'template']> = [
  ['a negative rate limit', 'config.rateLimit.perSecond=-1', /rateLimit\/perSecond/, 'schema'],
  ['a negative endpoint limit', 'config.rateLimit.endpoints.auth/login=-5', /endpoints/, 'schema'],
  ['a malformed sunset date', 'config.versioning.generations.path.sunset=2026-13-01', /generations\/path\/sunset/, 'schema'],
  ['a sunset date without a time', 'config.versioning.generations.original.sunset=2026-06-01', /original\/sunset/, 'schema'],
  ['a sunset enforcement that is not a boolean', 'config.versioning.generations.path.enforce=soon', /enforce/, 'schema'],
  ['a token lifetime below the minimum', 'config.app.accessToken.expiresIn=5', /accessToken\/expiresIn/, 'schema'],
  ['a token lifetime that is not an integer', 'config.app.refreshToken.expiresIn=1.5', /refreshToken\/expiresIn/, 'schema'],
  ['a trusted proxy that is not an address', 'config.server.trustedProxies={proxy.example.com}', /trustedProxies/, 'schema'],
  ['an unknown config key', 'config.rateLimit.perMinute=10', /perMinute/, 'schema'],
  ['a malformed endpoint sunset key', 'config.versioning.endpointSunsets.Auth_Token.enforce=true', /Auth_Token/, 'schema'],
  ['a writable root filesystem', 'containerSecurityContext.readOnlyRootFilesystem=false', /readOnlyRootFilesystem/, 'schema'],
  ['a negative replica count', 'gateway.replicas=-1', /replicas/, 'schema'],
  ['a grace period shorter than the shutdown grace', 'gateway.terminationGracePeriodSeconds=10', /terminationGracePeriodSeconds/, 'template'],
  ['a disruption budget that blocks node drains', 'gateway.replicas=1', /podDisruptionBudget/, 'template'],
  ['no database at all', 'postgresql.bundled.enabled=false', /postgresql\/url/, 'schema'],
]

for (const [what, set, names, where] of BAD) {
  t.test(`the chart refuses ${what}`, async (t) => {
    const setArgs = set.startsWith('config.versioning.generations.path.enforce') ? ['--set-string', set] : ['--set', set]
    const template = await helm([...templateArgs([], []), ...setArgs])
    t.notOk(template.ok, 'helm template fails')
    t.match(template.stderr, names, 'the message names the value')
    if (where === 'schema') {
      const lint = await helm(['lint', CHART, ...setArgs])
      t.notOk(lint.ok, 'helm lint fails')
    }
  })
}
