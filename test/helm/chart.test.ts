/**
 * The chart renders and lints on its default values and on every example, and what it renders
 * is safe to run: probes, resources and a restrictive security context on every container,
 * read-only root with writable scratch volumes, api.json mounted 0644, the inventory reachable
 * from the gateway only, graceful shutdown that outlasts the product's own grace period.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileConfig } from '../../src/shared/config/index.js'
import { ENDPOINTS } from '../../src/shared/manifest.js'
import { parseRouteFile } from '../../src/gateway/routes/files.js'
import { compileRouteTable } from '../../src/gateway/routes/table.js'
import { resolveUpstreams } from '../../src/gateway/upstreams/settings.js'
import { CHART, EXAMPLES, find, helm, parseManifests, render, type Manifest } from './helm.js'

interface Container {
  name: string
  args?: string[]
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
  livenessProbe?: { httpGet?: { path: string } }
  readinessProbe?: { httpGet?: { path: string } }
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] }; seccompProfile?: { type: string } }
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>
  lifecycle?: { preStop?: { exec?: { command: string[] } } }
  env?: Array<{ name: string; value?: string }>
}
interface PodSpec {
  containers: Container[]
  initContainers?: Container[]
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } }
  volumes?: Array<{
    name: string
    emptyDir?: unknown
    configMap?: { name: string; defaultMode?: number; items?: Array<{ key: string; path: string }> }
    secret?: { secretName: string; items?: Array<{ key: string; path: string }> }
  }>
  terminationGracePeriodSeconds?: number
  automountServiceAccountToken?: boolean
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job'])

function podSpec(m: Manifest): PodSpec {
  return (m.spec as { template: { spec: PodSpec } }).template.spec
}

function workloads(ms: Manifest[]): Manifest[] {
  return ms.filter((m) => WORKLOADS.has(m.kind))
}

const CASES: Array<[string, string[]]> = [['default values', []], ...EXAMPLES.map((f): [string, string[]] => [f, [f]])]

for (const [label, files] of CASES) {
  t.test(`helm lint and template: ${label}`, async (t) => {
    const lint = await helm(['lint', CHART, '--strict', ...files.flatMap((f) => ['-f', `${CHART}/${f}`])])
    t.ok(lint.ok, `helm lint passes\n${lint.stdout}${lint.stderr}`)
    const ms = await render(files)
    t.ok(ms.length > 3, 'renders manifests')
    for (const m of ms) t.ok(m.apiVersion && m.kind && m.metadata?.name, `${m.kind}/${m.metadata?.name} is a Kubernetes object`)

    for (const w of workloads(ms)) {
      const pod = podSpec(w)
      t.equal(pod.securityContext?.runAsNonRoot, true, `${w.metadata.name}: pod runs as non-root`)
      t.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', `${w.metadata.name}: seccomp RuntimeDefault`)
      t.equal(pod.automountServiceAccountToken, false, `${w.metadata.name}: no API token mounted`)
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        const id = `${w.metadata.name}/${c.name}`
        t.ok(c.resources?.requests?.cpu && c.resources?.requests?.memory, `${id}: cpu and memory requests`)
        t.ok(c.resources?.limits?.memory, `${id}: memory limit`)
        const sc = c.securityContext
        t.equal(sc?.allowPrivilegeEscalation, false, `${id}: no privilege escalation`)
        t.equal(sc?.readOnlyRootFilesystem, true, `${id}: read-only root filesystem`)
        t.equal(sc?.runAsNonRoot, true, `${id}: non-root`)
        t.not(sc?.privileged, true, `${id}: not privileged`)
        t.ok(sc?.capabilities?.drop?.includes('ALL'), `${id}: drops all capabilities`)
        t.equal(sc?.seccompProfile?.type, 'RuntimeDefault', `${id}: seccomp RuntimeDefault`)
        // A Job's container runs to completion: probes would only restart it mid-migration.
        if (w.kind !== 'Job') {
          t.ok(c.livenessProbe, `${id}: liveness probe`)
          t.ok(c.readinessProbe, `${id}: readiness probe`)
        }
      }
    }

    // The product's own containers: scratch volumes, api.json 0644, health endpoints.
    const rendered = (suffix: string) => ms.some((m) => m.kind === 'Deployment' && m.metadata.name.endsWith(suffix))
    for (const suffix of ['-gateway', '-inventory'].filter(rendered)) {
      const d = find(ms, 'Deployment', suffix)
      const pod = podSpec(d)
      const c = pod.containers[0]!
      t.equal(c.livenessProbe?.httpGet?.path, '/healthz', `${suffix}: liveness on /healthz`)
      t.equal(c.readinessProbe?.httpGet?.path, '/readyz', `${suffix}: readiness on /readyz`)
      const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.mountPath, m.name]))
      const vols = new Map((pod.volumes ?? []).map((v) => [v.name, v]))
      for (const path of ['/tmp', '/var/lib/netinv']) {
        t.ok(vols.get(mounts.get(path) ?? '')?.emptyDir, `${suffix}: writable emptyDir at ${path}`)
      }
      const config = vols.get(mounts.get('/etc/netinv/config') ?? '')
      t.equal(config?.configMap?.defaultMode, 0o644, `${suffix}: api.json mounted with mode 0644`)
      t.ok(d.spec && (d.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations['checksum/config'], `${suffix}: config checksum annotation`)
      const env = new Map((c.env ?? []).map((e) => [e.name, e.value]))
      t.equal(env.get('CONFIG_DIR'), '/etc/netinv/config')
      t.equal(env.get('DATA_DIR'), '/var/lib/netinv')
      t.ok(env.has('INTERNAL_SECRET') && env.has('DATABASE_URL'), `${suffix}: secret and database from the Secret`)
      if (suffix === '-gateway') {
        const scraped = 'prometheus.io/scrape' in (d.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations
        t.equal(env.get('ADMIN_HOST'), scraped ? '0.0.0.0' : undefined, `${suffix}: the admin port listens on the pod's address only when Prometheus scrapes it`)
      }
      const grace = pod.terminationGracePeriodSeconds ?? 30
      const preStop = Number(c.lifecycle?.preStop?.exec?.command[1])
      const config2 = compileConfig(JSON.parse(find(ms, 'ConfigMap', '-config').data!['api.json']!))
      t.ok(preStop > 0, `${suffix}: preStop pause`)
      t.ok(grace > preStop + config2.server.shutdownGraceMs / 1000, `${suffix}: grace period outlasts preStop + shutdown grace`)
    }

    if (rendered('-gateway')) {
      const gw = podSpec(find(ms, 'Deployment', '-gateway')).containers[0]!
      t.same(gw.args, ['gateway'])
      const gwEnv = new Map((gw.env ?? []).map((e) => [e.name, e.value]))
      if (rendered('-inventory')) t.match(gwEnv.get('INVENTORY_URL'), /^http:\/\/netinv-inventory:\d+$/, 'gateway finds the inventory Service')
      else t.notOk(gwEnv.has('INVENTORY_URL'), 'no inventory, no INVENTORY_URL')
      t.ok(gwEnv.has('JWT_PRIVATE_KEY_FILE') && gwEnv.has('JWT_PREVIOUS_PUBLIC_KEYS_DIR'), 'gateway signing key files')
    }
    if (rendered('-inventory')) {
      t.same(podSpec(find(ms, 'Deployment', '-inventory')).containers[0]!.args, ['inventory'])
      const inventorySvc = find(ms, 'Service', '-inventory')
      t.equal((inventorySvc.spec as { type: string }).type, 'ClusterIP', 'inventory is internal')
      const np = find(ms, 'NetworkPolicy', '-inventory').spec as {
        podSelector: { matchLabels: Record<string, string> }
        ingress: Array<{ from: Array<{ podSelector: { matchLabels: Record<string, string> } }> }>
      }
      t.equal(np.podSelector.matchLabels['app.kubernetes.io/component'], 'inventory')
      t.same(
        np.ingress.flatMap((r) => r.from.map((f) => f.podSelector.matchLabels['app.kubernetes.io/component'])),
        ['gateway'],
        'only the gateway may reach the inventory',
      )
    } else {
      t.notOk(ms.some((m) => m.metadata.name.endsWith('-inventory')), 'inventory.enabled false: nothing of the inventory')
    }

    const job = find(ms, 'Job', '-migrate')
    t.match(job.metadata.annotations?.['helm.sh/hook'], /pre-upgrade/, 'migrations run as a hook before upgrades')
    t.same(podSpec(job).containers[0]!.args, ['migrate'])
  })
}

t.test('default values: evaluation datastores and a generated Secret', async (t) => {
  const ms = await render()
  t.ok(find(ms, 'StatefulSet', '-postgresql'))
  t.ok(find(ms, 'StatefulSet', '-redis'))
  const secret = find(ms, 'Secret', '-secrets').stringData!
  t.match(secret['database-url'], /^postgres:\/\/netinv:[A-Za-z0-9]+@netinv-postgresql:5432\/netinv$/)
  t.equal(secret['redis-url'], 'redis://netinv-redis:6379')
  t.match(secret['jwt-private-key.pem'], /^-----BEGIN RSA PRIVATE KEY-----/)
  t.ok((secret['internal-secret'] ?? '').length >= 32, 'internal secret generated')
  t.ok(find(ms, 'PodDisruptionBudget', '-gateway'))
})

t.test('production example: external datastores, existing Secret, autoscaler, ingress', async (t) => {
  const ms = await render(['examples/production.yaml'])
  t.notOk(ms.some((m) => m.kind === 'StatefulSet'), 'no bundled datastores')
  t.notOk(ms.some((m) => m.kind === 'Secret'), 'the Secret is managed outside the chart')
  const envFrom = podSpec(find(ms, 'Deployment', '-gateway')).containers[0]!.env as unknown as Array<{
    name: string
    valueFrom?: { secretKeyRef: { name: string } }
  }>
  t.equal(envFrom.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef.name, 'netinv-secrets')
  const hpa = find(ms, 'HorizontalPodAutoscaler', '-gateway').spec as { minReplicas: number; maxReplicas: number }
  t.same([hpa.minReplicas, hpa.maxReplicas], [3, 12])
  t.notOk((find(ms, 'Deployment', '-gateway').spec as { replicas?: number }).replicas, 'the autoscaler owns the replica count')
  t.ok(find(ms, 'Ingress', 'netinv'))
})

t.test('a config change changes the checksum that rolls the pods', async (t) => {
  const checksum = async (set: string[]) =>
    (find(await render([], set), 'Deployment', '-gateway').spec as { template: { metadata: { annotations: Record<string, string> } } })
      .template.metadata.annotations['checksum/config']
  const a = await checksum([])
  // A separate render (other arguments) that sets the default value again: nothing changes.
  t.equal(await checksum(['config.rateLimit.perSecond=100']), a, 'stable when the config does not change')
  t.not(await checksum(['config.rateLimit.perSecond=250']), a, 'differs when a limit changes')
  t.notOk(await checksum(['rollOnConfigChange=false']), 'absent when rolling is switched off')
})

t.test('previous public keys are mounted for the gateway and roll it when they change', async (t) => {
  const pem = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----'
  const annotations = async (set: string[]) =>
    (find(await render(['examples/production.yaml'], set), 'Deployment', '-gateway').spec as {
      template: { metadata: { annotations: Record<string, string> } }
    }).template.metadata.annotations
  const ms = await render(['examples/production.yaml'], [`secrets.previousPublicKeys.jwt-2026-05\\.pem=${pem}`])
  const cm = find(ms, 'ConfigMap', '-jwt-previous')
  t.equal(cm.data?.['jwt-2026-05.pem']?.trim(), pem, 'the key file is in the ConfigMap')
  const vol = podSpec(find(ms, 'Deployment', '-gateway')).volumes?.find((v) => v.name === 'jwt-previous')
  t.equal(vol?.configMap?.name, cm.metadata.name, 'mounted into the gateway')
  const before = (await annotations([]))['checksum/jwt-previous']
  const after = (await annotations([`secrets.previousPublicKeys.jwt-2026-05\\.pem=${pem}`]))['checksum/jwt-previous']
  t.ok(after, 'a checksum of the keys')
  t.not(after, before, 'adding a key rolls the gateway')
  const bad = await helm(['template', 'netinv', CHART, '--set', 'secrets.previousPublicKeys.old\\.pem=not a key'])
  t.notOk(bad.ok, 'a value that is not a PEM public key is refused')
})

function subset(small: Record<string, string> | undefined, big: Record<string, string> | undefined): boolean {
  return !!small && Object.keys(small).length > 0 && Object.entries(small).every(([k, v]) => big?.[k] === v)
}

for (const [label, files] of CASES) {
  t.test(`every reference between rendered objects resolves: ${label}`, async (t) => {
    const ms = await render(files)
    const pods = workloads(ms).map((w) => ({
      name: w.metadata.name,
      labels: (w.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels,
      spec: podSpec(w),
      selector: (w.spec as { selector?: { matchLabels: Record<string, string> } }).selector?.matchLabels,
      claims: ((w.spec as { volumeClaimTemplates?: Array<{ metadata: { name: string } }> }).volumeClaimTemplates ?? []).map(
        (c) => c.metadata.name,
      ),
    }))
    for (const p of pods) if (p.selector) t.ok(subset(p.selector, p.labels), `${p.name}: selector matches its pods`)
    for (const svc of ms.filter((m) => m.kind === 'Service')) {
      const sel = (svc.spec as { selector: Record<string, string> }).selector
      t.equal(pods.filter((p) => subset(sel, p.labels)).length, 1, `Service ${svc.metadata.name} selects one workload`)
    }
    for (const np of ms.filter((m) => m.kind === 'NetworkPolicy')) {
      const sel = (np.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels
      t.ok(pods.some((p) => subset(sel, p.labels)), `NetworkPolicy ${np.metadata.name} selects pods`)
    }
    const secret = ms.find((m) => m.kind === 'Secret')
    const configMaps = new Set(ms.filter((m) => m.kind === 'ConfigMap').map((m) => m.metadata.name))
    for (const p of pods) {
      const volumes = new Set([...(p.spec.volumes ?? []).map((v) => v.name), ...p.claims])
      for (const c of p.spec.containers) {
        for (const m of c.volumeMounts ?? []) t.ok(volumes.has(m.name), `${p.name}/${c.name}: volume ${m.name} exists`)
        const env = (c.env ?? []) as Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }>
        for (const e of env) {
          const ref = e.valueFrom?.secretKeyRef
          if (!ref || !secret || ref.optional) continue
          t.equal(ref.name, secret.metadata.name, `${p.name}: ${e.name} from the chart's Secret`)
          t.ok(secret.stringData?.[ref.key] !== undefined, `${p.name}: ${e.name} key ${ref.key} exists`)
        }
      }
      for (const v of p.spec.volumes ?? []) {
        if (v.configMap) t.ok(configMaps.has(v.configMap.name), `${p.name}: ConfigMap ${v.configMap.name} exists`)
      }
    }
  })
}

/** The container of a workload by name. */
function container(m: Manifest, name?: string): Container & { ports?: Array<{ name: string; containerPort: number }> } {
  const pod = podSpec(m)
  const c = name === undefined ? pod.containers[0] : pod.containers.find((x) => x.name === name)
  if (!c) throw new Error(`${m.metadata.name} has no container ${name}`)
  return c
}

/** What the product would load from the rendered ConfigMap: api.json and the route files, as a route table. */
function loadedTable(ms: Manifest[], mounts: { items?: Array<{ key: string; path: string }> }) {
  const data = find(ms, 'ConfigMap', '-config').data!
  const config = compileConfig(JSON.parse(data['api.json']!))
  const files = (mounts.items ?? []).filter((i) => i.path.startsWith('routes/')).map((i) => parseRouteFile(i.path, data[i.key]!, 'json'))
  const upstreams = resolveUpstreams(config, { readFiles: false })
  return { config, table: compileRouteTable({ builtIn: ENDPOINTS, files, upstreams, canMintTokens: true }) }
}

t.test('gateway-only example: the gateway alone in front of an existing Service', async (t) => {
  const ms = await render(['examples/gateway-only.yaml'])
  t.notOk(ms.some((m) => m.metadata.name.endsWith('-inventory')), 'no inventory Deployment, Service or NetworkPolicy')
  const gateway = find(ms, 'Deployment', '-gateway')
  const pod = podSpec(gateway)
  const configVolume = pod.volumes!.find((v) => v.name === 'config')!.configMap!
  t.same(configVolume.items, [
    { key: 'api.json', path: 'api.json' },
    { key: 'routes.legacy.json', path: 'routes/legacy.json' },
  ], 'api.json and the route file, at the paths the gateway reads')
  const { config, table } = loadedTable(ms, configVolume)
  t.same(Object.keys(config.upstreams), ['legacy'])
  t.equal(table.match('devices/d1')?.endpoint.upstream, 'legacy', 'the route file loads into the product’s table')
  t.equal(table.match('anything/else')?.endpoint.path, '*', 'with its catch-all')
  t.notOk(table.routes.some((r) => r.upstream === 'inventory'), 'no endpoint goes to an inventory of netinv’s own')
  t.equal(pod.volumes!.find((v) => v.name === 'upstream-legacy')?.secret?.secretName, 'legacy-api-token', 'the service key’s Secret')
  const mount = container(gateway).volumeMounts!.find((m) => m.name === 'upstream-legacy')!
  t.ok(config.upstreams.legacy!.identity.valueFile.startsWith(`${mount.mountPath}/`), 'identity.valueFile is inside its mount')
  t.notOk(ms.some((m) => m.kind === 'Secret' && m.metadata.name === 'legacy-api-token'), 'the chart never holds the backend’s key')
})

t.test('sidecar recipe: the chart renders what the sidecar reads, the example Deployment carries the gateway container', async (t) => {
  const ms = await render(['examples/sidecar/values.yaml'])
  t.same(ms.map((m) => m.kind).sort(), ['ConfigMap', 'Job', 'Secret', 'ServiceAccount'], 'no gateway or inventory workload of the chart’s own')
  const [deployment, service] = parseManifests(readFileSync(join(CHART, 'examples/sidecar/legacy-deployment.yaml'), 'utf8'))
  const sidecar = container(deployment!, 'netinv-gateway')
  const backend = container(deployment!, 'legacy-api')
  // The same container as the chart's own gateway, rendered from the same values.
  const reference = container(find(await render(['examples/sidecar/values.yaml'], ['gateway.enabled=true']), 'Deployment', '-gateway'))
  t.same(sidecar.args, reference.args)
  const names = (c: Container) => (c.env ?? []).map((e) => e.name).filter((n) => n !== 'INTERNAL_SECRET').sort()
  t.same(names(sidecar), names(reference), 'the environment the product reads')
  const env = new Map((sidecar.env ?? []).map((e) => [e.name, e.value]))
  t.same((sidecar.volumeMounts ?? []).map((m) => m.mountPath).sort(), (reference.volumeMounts ?? []).map((m) => m.mountPath).sort(), 'the same files at the same paths')
  t.equal(sidecar.livenessProbe?.httpGet?.path, '/healthz')
  t.equal(sidecar.readinessProbe?.httpGet?.path, '/readyz')
  t.same(sidecar.securityContext, reference.securityContext, 'the same restrictive security context')
  // Every object the pod refers to: rendered by the chart, or the backend key named in the values.
  const pod = podSpec(deployment!)
  const chartSecret = find(ms, 'Secret', '-secrets')
  for (const v of pod.volumes!) {
    if (v.configMap) {
      const cm = find(ms, 'ConfigMap', v.configMap.name)
      for (const item of v.configMap.items ?? []) t.ok(cm.data?.[item.key] !== undefined, `ConfigMap ${v.configMap.name} has ${item.key}`)
    }
    if (v.secret?.secretName === chartSecret.metadata.name) for (const item of v.secret.items ?? []) t.ok(chartSecret.stringData?.[item.key] !== undefined, `Secret has ${item.key}`)
    else if (v.secret) t.equal(v.secret.secretName, 'legacy-api-token', 'the backend’s own key, named in upstreams.legacy.secret')
  }
  for (const e of (sidecar.env ?? []) as Array<{ valueFrom?: { secretKeyRef?: { name: string; key: string } } }>) {
    const ref = e.valueFrom?.secretKeyRef
    if (ref) t.equal(ref.name, chartSecret.metadata.name)
  }
  // The gateway reaches the backend on loopback, and is the pod's door.
  const { config, table } = loadedTable(ms, pod.volumes!.find((v) => v.name === 'netinv-config')!.configMap!)
  const upstream = new URL(config.upstreams.legacy!.url)
  t.equal(upstream.hostname, '127.0.0.1')
  t.equal(Number(upstream.port), backend.ports?.find((p) => p.name === 'legacy')?.containerPort, 'the backend container’s port')
  t.equal(Number(env.get('PORT')), sidecar.ports?.find((p) => p.name === 'http')?.containerPort)
  t.equal((service!.spec as { ports: Array<{ targetPort: string }> }).ports[0]!.targetPort, 'http', 'the Service sends clients to the gateway')
  t.ok(table.match('devices'), 'the route file loads')
  t.ok(pod.terminationGracePeriodSeconds! > 5 + config.server.shutdownGraceMs / 1000, 'the pod’s grace outlasts the gateway’s drain')
})

t.test('values that cannot work are refused at render time', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['inventory.enabled=false'], /nothing to forward to: name the backends in upstreams/],
    [['upstreams.legacy.url=http://legacy:8080'], /upstreams\.legacy has no routes/],
    [['upstreams.inventory.url=http://x:1'], /upstreams\.inventory is netinv's own inventory/],
  ]
  for (const [set, message] of cases) {
    const r = await helm(['template', 'netinv', CHART, ...set.flatMap((s) => ['--set', s])])
    t.notOk(r.ok, set.join(' '))
    t.match(r.stderr, message)
  }
  const bad = await helm(['template', 'netinv', CHART, '-f', `${CHART}/examples/gateway-only.yaml`, '--set', 'upstreams.legacy.versioning=sideways'])
  t.notOk(bad.ok, 'the schema refuses a versioning mode the product does not know')
})

t.test('identity Secrets: the LDAP bind password and CA and the OIDC client secrets are mounted in the gateway and api.json points at them', async (t) => {
  const set = [
    'identity.ldap.secret=corp-ldap',
    'identity.ldap.caKey=ca\\.crt',
    'identity.sso.corp.secret=corp-oidc',
    'config.ldap.enabled=true',
    'config.ldap.url=ldaps://ldap.corp.example:636',
    'config.sso.providers.corp.issuer=https://id.corp.example',
    'config.sso.providers.corp.clientId=netinv',
    'config.sso.providers.corp.redirectBaseUrl=https://netinv.corp.example',
  ]
  const ms = await render([], set)
  const config = compileConfig(JSON.parse(find(ms, 'ConfigMap', '-config').data!['api.json']!))
  t.equal(config.ldap.bindPasswordFile, '/etc/netinv/identity/ldap/bind-password')
  t.equal(config.ldap.caFile, '/etc/netinv/identity/ldap/ca.pem')
  t.equal(config.sso.providers.corp?.clientSecretFile, '/etc/netinv/identity/sso/corp/client-secret')
  const spec = podSpec(find(ms, 'Deployment', '-gateway'))
  const mounts = spec.containers.find((c) => c.name === 'gateway')?.volumeMounts ?? []
  t.same(
    mounts.filter((m) => m.name.startsWith('identity-')),
    [
      { name: 'identity-ldap', mountPath: '/etc/netinv/identity/ldap', readOnly: true },
      { name: 'identity-sso-corp', mountPath: '/etc/netinv/identity/sso/corp', readOnly: true },
    ],
  )
  const volumes = (spec.volumes ?? []).filter((v) => v.name.startsWith('identity-'))
  t.same(
    volumes.map((v) => [v.name, v.secret?.secretName, v.secret?.items]),
    [
      ['identity-ldap', 'corp-ldap', [{ key: 'bind-password', path: 'bind-password' }, { key: 'ca.crt', path: 'ca.pem' }]],
      ['identity-sso-corp', 'corp-oidc', [{ key: 'client-secret', path: 'client-secret' }]],
    ],
    'only the named keys of the Secrets',
  )
  t.ok(volumes.every((v) => (v.secret as { defaultMode?: number } | undefined)?.defaultMode === 0o440), 'readable by the process group only')
  t.notOk(JSON.stringify(find(ms, 'Deployment', '-inventory')).includes('identity-'), 'the inventory mounts none of them')

  const none = await render([], [])
  t.notOk(JSON.stringify(find(none, 'Deployment', '-gateway')).includes('identity-'), 'nothing mounted when none is named')
  const orphan = await helm(['template', 'netinv', CHART, '--set', 'identity.sso.nowhere.secret=x'])
  t.notOk(orphan.ok, 'a client secret for a provider that is not configured is refused')
  t.match(orphan.stderr, /identity\.sso\.nowhere: no provider "nowhere" in config\.sso\.providers/)
  const keyless = await helm(['template', 'netinv', CHART, '--set', 'identity.sso.corp.key=x'])
  t.notOk(keyless.ok, 'a provider entry without its Secret is refused by the schema')
})
