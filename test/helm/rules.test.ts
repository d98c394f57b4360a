/**
 * The chart's PrometheusRule, tested with Debian's promtool (package prometheus): the rules as
 * the chart renders them pass `promtool check rules`, and `promtool test rules` feeds them
 * series written here and checks that each alert fires when its condition holds long enough,
 * with its labels and annotations, and stays silent before.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { stringify } from 'yaml'
import { hasCommand, testNeeding } from '../helpers/requirements.js'
import { render } from './helm.js'

const run = promisify(execFile)

interface Rule {
  alert: string
  expr: string
  for?: string
  labels: Record<string, string>
  annotations: Record<string, string>
}

/** An alert's annotations as Prometheus expands them for `labels`. */
function annotationsFor(rule: Rule, labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(rule.annotations).map(([k, v]) => [k, v.replace(/\{\{ \$labels\.([a-z_]+) \}\}/g, (_, name: string) => labels[name] ?? '')]))
}

interface Case {
  alert: string
  series: Array<{ series: string; values: string }>
  /** When the condition has held long enough, and the labels the alert carries then. */
  firesAt: string
  labels: Record<string, string>
  /** A time before that: no alert. */
  silentAt: string
}

const CASES: Case[] = [
  {
    alert: 'NetinvGateway5xxRatio',
    series: [
      { series: 'netinv_gateway_requests_total{job="gw",upstream="inventory",endpoint="snapshots",method="GET",status="200"}', values: '0+60x30' },
      { series: 'netinv_gateway_requests_total{job="gw",upstream="inventory",endpoint="snapshots",method="GET",status="503"}', values: '0+10x30' },
      // another job whose 5xx share stays under the threshold
      { series: 'netinv_gateway_requests_total{job="calm",upstream="inventory",endpoint="snapshots",method="GET",status="200"}', values: '0+600x30' },
      { series: 'netinv_gateway_requests_total{job="calm",upstream="inventory",endpoint="snapshots",method="GET",status="502"}', values: '0+1x30' },
    ],
    firesAt: '15m',
    labels: { job: 'gw' },
    silentAt: '3m',
  },
  {
    alert: 'NetinvUpstreamUnavailable',
    series: [
      { series: 'netinv_gateway_upstream_up{job="gw",upstream="inventory"}', values: '0x10' },
      { series: 'netinv_gateway_upstream_up{job="gw",upstream="legacy"}', values: '1x10' },
    ],
    firesAt: '5m',
    labels: { job: 'gw', upstream: 'inventory' },
    silentAt: '1m',
  },
  {
    alert: 'NetinvRedisFallback',
    series: [{ series: 'netinv_gateway_ratelimit_redis_up{job="gw"}', values: '1 1 0x20' }],
    firesAt: '10m',
    labels: { job: 'gw' },
    silentAt: '4m',
  },
  {
    alert: 'NetinvDatabaseUnavailable',
    series: [
      { series: 'netinv_db_errors_total{job="inv",kind="unavailable"}', values: '0 0 0+3x20' },
      { series: 'netinv_db_errors_total{job="inv",kind="statement_timeout"}', values: '0+5x22' },
    ],
    firesAt: '10m',
    labels: { job: 'inv', kind: 'unavailable' },
    silentAt: '1m',
  },
  {
    alert: 'NetinvDatabaseBusy',
    series: [{ series: 'netinv_db_pool_waiting{job="inv"}', values: '0 0 4x30' }],
    firesAt: '20m',
    labels: { job: 'inv' },
    silentAt: '8m',
  },
  {
    alert: 'NetinvDiscoveryFailures',
    series: [
      { series: 'netinv_inventory_discovery_jobs_total{job="inv",source="network",outcome="failed"}', values: '0 0 0 1x10' },
      { series: 'netinv_inventory_discovery_jobs_total{job="inv",source="simulator",outcome="done"}', values: '0+1x12' },
    ],
    firesAt: '6m',
    labels: { job: 'inv', source: 'network', outcome: 'failed' },
    silentAt: '2m',
  },
  {
    alert: 'NetinvEventLoopDelay',
    series: [
      { series: 'nodejs_eventloop_lag_p99_seconds{job="inv",instance="inv-0"}', values: '0.01 0.01 0.9x20' },
      { series: 'nodejs_eventloop_lag_p99_seconds{job="gw",instance="gw-0"}', values: '0.02x22' },
    ],
    firesAt: '15m',
    labels: { job: 'inv', instance: 'inv-0' },
    silentAt: '9m',
  },
]

testNeeding(t, 'the alert rules of the chart fire on the series that call for them, and only then', hasCommand('promtool') ? undefined : 'promtool (Debian package prometheus)', async (t) => {
  const manifests = await render([], ['monitoring.prometheusRule.enabled=true'])
  const rule = manifests.find((m) => m.kind === 'PrometheusRule')
  t.ok(rule, 'the chart renders a PrometheusRule')
  const groups = (rule!.spec as { groups: Array<{ name: string; rules: Rule[] }> }).groups
  const rules = groups.flatMap((g) => g.rules)
  t.same(rules.map((r) => r.alert).sort(), CASES.map((c) => c.alert).sort(), 'every alert has a case here')
  for (const r of rules) t.match(r.annotations.runbook, /^docs\/operations\.md#alerts/, `${r.alert} links its runbook line`)

  const dir = mkdtempSync(join(tmpdir(), 'netinv-rules-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'rules.yml'), stringify({ groups }))
  const checked = await run('promtool', ['check', 'rules', join(dir, 'rules.yml')])
  t.match(checked.stdout, /SUCCESS: 7 rules found/, 'promtool check rules')

  const tests = CASES.map((c) => {
    const r = rules.find((x) => x.alert === c.alert)!
    const labels = { ...c.labels, ...r.labels }
    return {
      interval: '1m',
      input_series: c.series,
      alert_rule_test: [
        { eval_time: c.silentAt, alertname: c.alert, exp_alerts: [] },
        { eval_time: c.firesAt, alertname: c.alert, exp_alerts: [{ exp_labels: labels, exp_annotations: annotationsFor(r, labels) }] },
      ],
    }
  })
  writeFileSync(join(dir, 'tests.yml'), stringify({ rule_files: ['rules.yml'], evaluation_interval: '1m', tests }))
  const tested = await run('promtool', ['test', 'rules', join(dir, 'tests.yml')]).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: `${err.stdout ?? ''}${err.stderr ?? ''}`, failed: true }))
  t.notOk('failed' in tested, 'promtool test rules passes')
  t.match(tested.stdout, /SUCCESS/, tested.stdout.slice(0, 3000))
})
