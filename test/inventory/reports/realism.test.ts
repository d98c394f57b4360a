/**
 * The simulated lab network looks like a real one through the built-in intent rules: each rule
 * colours some rows in its worst severity but never all of them, and rules that flag problems
 * (amber, red) leave most rows green. Also: uptimes and reload reasons are realistic and agree
 * from one discovery to the next.
 */
import t from 'tap'
import { freshPglite } from '../../helpers/db.js'
import { findTable } from '../../../src/inventory/catalog/index.js'
import { BUILTIN_RULES, ReportService } from '../../../src/inventory/reports/index.js'
import { GENERATORS, simulate, tableObjects, type Row } from '../../../src/inventory/simulator/index.js'
import { LAB_ID, labSnapshot } from './lab.js'

/** The seed of the simulator's own lab tests. */
const SEED = 42
const DAY = 86400

t.test('each built-in rule colours some, not all, lab rows in its worst severity', async (t) => {
  const db = await freshPglite(t)
  await labSnapshot(db, LAB_ID, SEED)
  const results = await new ReportService({ db, findTable }).results(BUILTIN_RULES, LAB_ID)
  for (const rule of BUILTIN_RULES) {
    const result = results.get(rule.id)!
    const severities = Object.keys(rule.checks).map(Number)
    const worst = String(Math.max(...severities)) as keyof typeof result.checks
    const flagged = Number(result.checks[worst])
    t.ok(flagged > 0 && flagged < (result.count ?? 0), `${rule.id}: ${flagged} of ${result.count} rows at severity ${worst}`)
    if (Number(worst) >= 20 && result.checks['0'] !== undefined) {
      t.ok(Number(result.checks['0']) > flagged * 4, `${rule.id}: mostly green (${result.checks['0']} green, ${flagged} at ${worst})`)
    }
  }
})

function devices(generation: number): Map<string, Row> {
  const sim = simulate({ profile: 'lab', seed: SEED, sites: [], generation })
  const [, gen] = GENERATORS.find(([table]) => table.path === 'inventory/devices')!
  return new Map([...tableObjects(sim.network, gen)].map((d) => [String(d.id), d]))
}

t.test('uptimes spread from hours to years, a few devices reloaded recently', async (t) => {
  const first = [...devices(0).values()].map((d) => Number(d.uptime))
  const recent = first.filter((u) => u < DAY).length
  t.ok(recent > 0 && recent < first.length * 0.1, `${recent} of ${first.length} reloaded within a day of the first discovery`)
  t.ok(first.some((u) => u > 365 * DAY), 'some devices have been up for more than a year')
  t.ok(first.some((u) => u > DAY && u < 30 * DAY), 'some for days')
  t.ok(first.filter((u) => u > 30 * DAY).length > first.length / 2, 'most for over a month')
})

t.test('uptime and reload reason agree between discoveries a day apart', async (t) => {
  const before = devices(3)
  const after = devices(4)
  let kept = 0
  let reloaded = 0
  for (const [id, b] of before) {
    const a = after.get(id)
    if (!a) continue
    if (Number(a.uptime) === Number(b.uptime) + DAY) {
      t.equal(a.reload, b.reload, `${id}: same reload reason while it stays up`)
      kept++
    } else {
      t.ok(Number(a.uptime) < DAY, `${id}: an uptime that did not grow by a day is a reload within the day (${b.uptime} → ${a.uptime})`)
      reloaded++
    }
  }
  t.ok(kept > reloaded * 5, `${kept} stayed up, ${reloaded} reloaded`)
})
