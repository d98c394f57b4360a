/**
 * Usernames as people read them. A username is stored and looked up in Unicode NFKC (so that
 * `ａｄｍｉｎ` in full-width letters is `admin`), compared without case, and refused when it could
 * pass for another: letters of more than one script (`аdmin` with a Cyrillic а), invisible or
 * unassigned characters, or a look-alike of an existing username (its skeleton: lower case, with
 * the Cyrillic, Greek and other letters that look like Latin ones replaced by those, after the
 * confusables of Unicode TR 39).
 */
import { ownValue } from '../../shared/own.js'

/** Scripts a username's letters may come from, one per name (see SCRIPT_SETS for the mixes). */
const SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Thai',
  'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo', 'Cherokee', 'Ethiopic', 'Tamil', 'Telugu',
] as const
const SCRIPT_TESTS = SCRIPTS.map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u') }))

/** Mixes that are one writing system (TR 39 "highly restrictive"): Japanese, Chinese, Korean. */
const SCRIPT_SETS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
]

/** Letters that pass for Latin ones (TR 39 confusables, lower case), mapped to them. */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', п: 'n', о: 'o', р: 'p',
  ԛ: 'q', г: 'r', ѕ: 's', т: 't', ѵ: 'v', ԝ: 'w', х: 'x', у: 'y', ү: 'y', з: '3', ь: 'b',
  // Greek
  α: 'a', β: 'b', ϲ: 'c', δ: 'd', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w',
  // Armenian and Latin letters of other alphabets
  օ: 'o', ս: 'u', ո: 'n', հ: 'h', ց: 'g', ɡ: 'g', ı: 'i', ȷ: 'j', ɑ: 'a', ʋ: 'u',
}

export function normalizeUsername(name: string): string {
  return name.normalize('NFKC')
}

function scriptOf(ch: string): string | undefined {
  for (const s of SCRIPT_TESTS) if (s.re.test(ch)) return s.name
  return undefined
}

/** Why `name` (already normalised) cannot be a username, or null. */
export function usernameProblem(name: string): string | null {
  if (name.includes(':') || /[\p{Cc}\s]/u.test(name)) return 'must not contain ":", spaces or control characters'
  if (/[\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u.test(name)) return 'must not contain invisible, private-use or unassigned characters'
  const scripts = new Set<string>()
  for (const ch of name) {
    if (!/\p{L}/u.test(ch)) continue
    scripts.add(scriptOf(ch) ?? `other:${ch}`)
  }
  if (scripts.size > 1 && !SCRIPT_SETS.some((set) => [...scripts].every((s) => set.has(s)))) {
    return `must not mix letters of different scripts (${[...scripts].map((s) => (s.startsWith('other:') ? 'other' : s)).join(', ')}), which can make it look like another name`
  }
  return null
}

/** What `name` looks like: names with one skeleton are confusable. */
export function usernameSkeleton(name: string): string {
  let out = ''
  for (const ch of normalizeUsername(name).toLowerCase()) out += ownValue(LOOK_ALIKES, ch) ?? ch
  return out
}
