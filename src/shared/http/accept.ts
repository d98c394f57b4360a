/** Content negotiation for the few media types we produce. */

/** Picks the best of `offered` for an Accept header; null when none is acceptable (406). */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | null {
  if (!accept || accept.trim() === '') return offered[0] ?? null
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';')
      let q = 1
      for (const p of params) {
        const [k, v] = p.trim().split('=')
        if (k === 'q' && v !== undefined) {
          const n = Number(v)
          q = Number.isFinite(n) ? n : 0
        }
      }
      return { range: range.trim().toLowerCase(), q, index }
    })
    .filter((r) => r.range !== '')
  let best: { type: string; q: number; specificity: number; index: number } | null = null
  for (const type of offered) {
    const [main] = type.split('/')
    for (const r of ranges) {
      const specificity = r.range === type ? 2 : r.range === `${main}/*` ? 1 : r.range === '*/*' ? 0 : -1
      if (specificity < 0 || r.q <= 0) continue
      if (!best || r.q > best.q || (r.q === best.q && specificity > best.specificity)) {
        best = { type, q: r.q, specificity, index: r.index }
      }
    }
  }
  return best?.type ?? null
}
