/**
 * How hard a key string chosen by a user is to guess. A generated key has 258 random bits; a
 * chosen one must be at least 32 printable ASCII characters without spaces and carry an estimated
 * MIN_KEY_BITS bits: its length times the Shannon entropy per character of its characters, and
 * of the steps between neighbouring characters (so that neither a repeated character nor a run
 * such as `abcdef…` or `0123…` passes for randomness), and three in four of its three-character
 * pieces must differ (no repeated block). 32 random hexadecimal digits (`openssl rand -hex 16`,
 * 128 bits; never below 90 by this estimate in 100,000 draws) pass; 32 identical characters, the
 * alphabet or a word repeated do not.
 */
export const MIN_CUSTOM_KEY_LENGTH = 32
export const MIN_KEY_BITS = 80
const MIN_DISTINCT_TRIGRAMS = 0.75

const PRINTABLE = /^[\x21-\x7e]+$/

/** Shannon entropy in bits per symbol of the symbols' frequencies. */
function bitsPerSymbol(symbols: ArrayLike<number>): number {
  const counts = new Map<number, number>()
  for (let i = 0; i < symbols.length; i++) counts.set(symbols[i]!, (counts.get(symbols[i]!) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) {
    const p = n / symbols.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/** The estimated entropy of `key` in bits (see above). */
export function estimatedKeyBits(key: string): number {
  const codes = Array.from(key, (c) => c.codePointAt(0)!)
  const steps = codes.slice(1).map((c, i) => c - codes[i]!)
  return codes.length * Math.min(bitsPerSymbol(codes), steps.length > 0 ? bitsPerSymbol(steps) : 0)
}

/** The share of distinct pieces of three characters among all of them. */
function distinctTrigrams(key: string): number {
  const seen = new Set<string>()
  for (let i = 0; i + 3 <= key.length; i++) seen.add(key.slice(i, i + 3))
  return seen.size / Math.max(1, key.length - 2)
}

/** Why a chosen key is refused (to follow `"token" `), or null when it is acceptable. */
export function customKeyProblem(key: string): string | null {
  if (key.length < MIN_CUSTOM_KEY_LENGTH || !PRINTABLE.test(key)) return `must be at least ${MIN_CUSTOM_KEY_LENGTH} printable characters without spaces`
  if (estimatedKeyBits(key) < MIN_KEY_BITS || distinctTrigrams(key) < MIN_DISTINCT_TRIGRAMS) return 'is too easy to guess: use random characters (e.g. the output of `openssl rand -base64 32`)'
  return null
}
