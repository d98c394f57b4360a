/**
 * The chart renders and lints on its default values and on every example, and what it renders
 * is safe to run: probes, resources and a restrictive security context on every container,
 * read-only root with writable scratch volumes, api.json mounted 0644, the inventory reachable
 * from the gateway only, graceful shutdown that outlasts the product's own grace period.
 */
import t from 'tap'
import { compileConfig } from '../../src/shared/config/index.js'
import { CHART, EXAMPLES, find, helm, render, type Manifest } from './helm.js'

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
  volumes?: Array<{ name: string; emptyDir?: unknown; configMap?: { name: string; defaultMode?: number } }>
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
    t.ok(ms.length > 5, 'renders manifests')
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
    for (const suffix of ['-gateway', '-inventory']) {
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

    const gw = podSpec(find(ms, 'Deployment', '-gateway')).containers[0]!
    t.same(gw.args, ['gateway'])
    const gwEnv = new Map((gw.env ?? []).map((e) => [e.name, e.value]))
    t.match(gwEnv.get('INVENTORY_URL'), /^http:\/\/netinv-inventory:\d+$/, 'gateway finds the inventory Service')
    t.ok(gwEnv.has('JWT_PRIVATE_KEY_FILE') && gwEnv.has('JWT_PREVIOUS_PUBLIC_KEYS_DIR'), 'gateway signing key files')
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
