/** The nearest known name to a word that names nothing: for "did you mean" in errors. */

/** Edit distance of two short words (insertions, deletions, substitutions, swaps of neighbours). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/** The known name nearest to `word` when it is close enough to be a typo of it (or a prefix of only it). */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  const names = [...known]
  const prefixed = names.filter((n) => word.length >= 2 && n.startsWith(word))
  if (prefixed.length === 1) return prefixed[0]
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of names) {
    const dist = distance(word.toLowerCase(), name.toLowerCase())
    if (dist < bestDistance) [best, bestDistance] = [name, dist]
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined
}

/** A typo of `name` (or its beginning); `size`: the length the typos allowed are measured on. */
const close = (word: string, name: string, size = word.length): boolean =>
  (word.length >= 2 && name.startsWith(word)) || distance(word.toLowerCase(), name.toLowerCase()) <= Math.max(1, Math.floor(size / 3))

/**
 * The paths (`a/b/c`) a path that names nothing may have meant, nearest first, at most `max`: a
 * path close to the whole of it, or one whose last segment is close to its last segment
 * (`inventory/device`: inventory/devices, vlan/device).
 */
export function nearPaths(wanted: string, paths: Iterable<string>, max = 3): string[] {
  const last = wanted.split('/').pop() ?? wanted
  const near: Array<{ path: string; d: number }> = []
  for (const path of new Set(paths)) {
    if (path === wanted) continue
    const end = path.split('/').pop() ?? path
    // a word is weighed against the tables' own names, a path against the whole paths
    // the typos a path may hold are those of its last segment: paths share their groups
    if (close(wanted, path, last.length) || close(last, end)) near.push({ path, d: wanted.includes('/') ? distance(wanted, path) : distance(last, end) })
  }
  return near
    .sort((a, b) => a.d - b.d || a.path.localeCompare(b.path))
    .slice(0, max)
    .map((n) => n.path)
}

/** " (did you mean a, b or c?)", or '' when nothing is near. */
export function didYouMeanOneOf(near: readonly string[]): string {
  if (near.length === 0) return ''
  const list = near.length === 1 ? near[0]! : `${near.slice(0, -1).join(', ')} or ${near.at(-1)!}`
  return ` (did you mean ${list}?)`
}
