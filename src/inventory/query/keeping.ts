/**
 * Each comparison kept once: the keeping of one pair's table (`keepComparison`) that this process
 * has under way is shared by everyone who asks for it meanwhile (a discovery's keeping in the
 * background, a `changes` request, a compared table request), so a request that arrives while a
 * table is being kept waits for that work instead of joining the two snapshots a second time.
 * Another process asking for the same table waits in the database instead (the pair's row in
 * `snapshot_changes` is inserted first; a second insert waits for the first writer's commit and
 * reads its counts), and relations are created under an advisory lock (`kept-comparison.ts`).
 *
 * Nothing here outlives the process: a pair whose keeping a restart cut short is kept on its first
 * request, as any pair.
 */
import type { Db, Deadline } from '../../shared/db/index.js'
import { timeoutError } from '../../shared/db/pglite-protocol.js'
import { findTable } from '../catalog/index.js'
import type { TableDef } from '../catalog/types.js'
import type { ComparedSnapshots } from './compare.js'
import { keepComparison, keptCounts, type KeptCounts } from './kept-comparison.js'

type Keeping = Promise<KeptCounts | undefined>

/** Keepings under way, per database handle and pair's table. */
const UNDER_WAY = new WeakMap<Db, Map<string, Keeping>>()
/** Work in the background that keeps comparisons (a discovery's), per database handle. */
const BACKGROUND = new WeakMap<Db, Set<Promise<void>>>()

function keyOf(pair: ComparedSnapshots, volatile: boolean, table: TableDef): string {
  return `${pair.newer}\0${pair.older}\0${volatile ? 1 : 0}\0${table.path}`
}

type Outcome = { ok: true; counts: KeptCounts | undefined } | { ok: false; err: unknown }

/** How `keeping` ends, or a statement timeout when `deadline` passes first (the keeping goes on). */
async function waitFor(keeping: Keeping, deadline: Deadline): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), Math.max(0, Math.floor(deadline.remaining())))
  })
  try {
    return await Promise.race([keeping.then((counts): Outcome => ({ ok: true, counts }), (err: unknown): Outcome => ({ ok: false, err })), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `keepComparison` unless the pair's table is kept already, once per pair's table at a time in
 * this process: while one is under way,
 * waits for it (at most until `deadline`, then a statement timeout while it goes on) and answers
 * its counts. When the one waited for fails (e.g. its own, shorter deadline passed), keeps with
 * this caller's deadline.
 */
export async function keepOnce(db: Db, pair: ComparedSnapshots, volatile: boolean, table: TableDef, deadline: Deadline): Promise<KeptCounts | undefined> {
  let underWay = UNDER_WAY.get(db)
  if (!underWay) UNDER_WAY.set(db, (underWay = new Map()))
  const key = keyOf(pair, volatile, table)
  for (;;) {
    const running = underWay.get(key)
    if (running === undefined) {
      // kept meanwhile (by a caller that listed the tables to keep after this one did): read
      const mine = (async () => {
        const kept = await keptCounts(db, pair, volatile, table)
        if (kept) return kept
        await keepWith(db, pair, volatile, table, deadline)
        return keepComparison(db, pair, volatile, table, deadline)
      })()
      const map = underWay
      map.set(key, mine)
      const forget = () => {
        if (map.get(key) === mine) map.delete(key)
      }
      mine.then(forget, forget)
      return mine
    }
    const outcome = await waitFor(running, deadline)
    if (outcome.ok) return outcome.counts
    if (underWay.get(key) === running) underWay.delete(key)
    if (deadline.remaining() < 1) throw outcome.err
  }
}

/**
 * For a table whose rows are copies of another's (`rowFrom`), that one kept first, once for all the
 * tables computed from it: keeping this one then reads its kept rows instead of both snapshots.
 */
async function keepWith(db: Db, pair: ComparedSnapshots, volatile: boolean, table: TableDef, deadline: Deadline): Promise<void> {
  const base = !volatile && table.rowFrom !== undefined ? findTable(table.rowFrom) : undefined
  if (base) await keepOnce(db, pair, volatile, base, deadline)
}

/** Whether this process is keeping the pair's table now (tests). */
export function keepingUnderWay(db: Db, pair: ComparedSnapshots, volatile: boolean, table: TableDef): boolean {
  return UNDER_WAY.get(db)?.has(keyOf(pair, volatile, table)) ?? false
}

/** Records background work keeping comparisons of `db` until it settles (`backgroundKeeping`). */
export function trackBackground(db: Db, work: Promise<void>): void {
  let set = BACKGROUND.get(db)
  if (!set) BACKGROUND.set(db, (set = new Set()))
  const tracked = work.then(
    () => {},
    () => {},
  )
  set.add(tracked)
  void tracked.then(() => set.delete(tracked))
}

/** Waits until the background keeping of comparisons of `db` has ended (tests, benchmarks). */
export async function backgroundKeeping(db: Db): Promise<void> {
  const set = BACKGROUND.get(db)
  while (set && set.size > 0) await Promise.all([...set])
}
