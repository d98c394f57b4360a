/**
 * Content negotiation for the few media types we produce (RFC 9110 12.5.1): the gateway checks
 * every request's `Accept` against what its endpoint answers in (406 when nothing is acceptable),
 * the inventory does the same for its own routes and picks JSON or CSV for tables.
 */

interface MediaRange {
  range: string
  q: number
}

function parseRanges(accept: string): MediaRange[] {
  const out: MediaRange[] = []
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().split(';')
    const r = range.trim().toLowerCase()
    if (r === '') continue
    let q = 1
    for (const p of params) {
      const eq = p.indexOf('=')
      if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue
      const n = Number(p.slice(eq + 1).trim())
      q = Number.isFinite(n) ? n : 0
    }
    out.push({ range: r, q })
  }
  return out
}

/** 2 for the type itself, 1 for `type/*`, 0 for `*\/*`, -1 when the range does not cover it. */
function specificity(range: string, type: string, main: string): number {
  if (range === type) return 2
  if (range === '*/*') return 0
  return range.length === main.length + 2 && range.startsWith(main) && range.endsWith('/*') ? 1 : -1
}

/**
 * Picks the best of `offered` for an Accept header; null when none is acceptable (406). A type's
 * quality is that of the most specific range that covers it (`*\/*, application/json;q=0` refuses
 * JSON); the highest quality wins, then the type named most specifically, then the order of `offered`.
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | null {
  if (accept === undefined || accept.trim() === '') return offered[0] ?? null
  const ranges = parseRanges(accept)
  let best: { type: string; q: number; specificity: number } | null = null
  for (const type of offered) {
    const main = type.slice(0, type.indexOf('/'))
    let q = 0
    let spec = -1
    for (const r of ranges) {
      const s = specificity(r.range, type, main)
      if (s > spec || (s === spec && r.q > q)) {
        spec = s
        q = r.q
      }
    }
    if (spec < 0 || q <= 0) continue
    if (!best || q > best.q || (q === best.q && spec > best.specificity)) best = { type, q, specificity: spec }
  }
  return best?.type ?? null
}

/** Verdicts on the Accept headers seen lately, per list of offered types (a route's, kept while it is). */
const verdicts = new WeakMap<readonly string[], Map<string, boolean>>()
/** Clients send a handful of distinct headers; random ones only cost their parsing, never memory. */
const REMEMBERED = 64

/**
 * Whether an Accept header allows one of `offered`. This runs on every request the gateway
 * serves: the usual headers (none, `*\/*`, the first offered type) are answered without parsing,
 * and the verdict on any other is remembered (a browser's or a client library's header repeats).
 */
export function acceptable(accept: string | undefined, offered: readonly string[]): boolean {
  if (accept === undefined || accept === '*/*' || accept === offered[0]) return true
  let known = verdicts.get(offered)
  if (known === undefined) verdicts.set(offered, (known = new Map()))
  let verdict = known.get(accept)
  if (verdict === undefined) {
    verdict = negotiate(accept, offered) !== null
    if (known.size >= REMEMBERED) known.clear()
    known.set(accept, verdict)
  }
  return verdict
}
