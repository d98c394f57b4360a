/**
 * The check every regular expression of a filter passes before any database sees it, the same on
 * PostgreSQL and on the embedded database. It reads PostgreSQL's advanced regular expression
 * syntax (ARE) far enough to refuse, in our own words:
 *
 * - shapes whose cost explodes: repetitions nested in unbounded repetitions (`(a+)+`, `(\w*)*`),
 *   bounded repetitions whose expansion is large (`(\w{1,255}){1,255}` expands to 65,025 copies:
 *   PostgreSQL refuses it as too complex after compiling it, the embedded engine compiles it for
 *   seconds and is then left unable to answer), and back-references (`(a*)\1`), which make the
 *   engine backtrack;
 * - syntax errors a user makes (unbalanced parentheses or brackets, a quantifier with nothing to
 *   repeat, a bad repetition count), so the answer names the condition.
 *
 * What it lets through may still be refused by the database (an invalid range such as `[z-a]`);
 * that answer is a 422 too.
 */

/** Largest expansion of a pattern's bounded repetitions (each atom counted once per copy). */
export const MAX_PATTERN_SIZE = 1000
/** PostgreSQL's largest repetition count (RE_DUP_MAX). */
export const MAX_REPEAT = 255

export class PatternError extends Error {}

interface Shape {
  /** Atoms after expanding bounded repetitions. */
  size: number
  /** Whether it holds an unbounded repetition (`*`, `+`, `{m,}`). */
  unbounded: boolean
  /** A constraint (`^`, `$`, lookaround, `\y`...): nothing to repeat. */
  constraint: boolean
}

const EMPTY: Shape = { size: 0, unbounded: false, constraint: false }
const ATOM: Shape = { size: 1, unbounded: false, constraint: false }
const CONSTRAINT: Shape = { size: 1, unbounded: false, constraint: true }
const CONSTRAINT_ESCAPES = new Set(['A', 'm', 'M', 'y', 'Y', 'Z'])
const OPTION_LETTERS = /^[bceimnpqstwx]*$/

function fail(message: string): never {
  throw new PatternError(message)
}

class Scanner {
  i = 0
  constructor(
    readonly src: string,
    readonly expanded: boolean,
  ) {}

  peek(offset = 0): string | undefined {
    return this.src[this.i + offset]
  }

  /** Skips white space and `#` comments of the expanded syntax (option x). */
  skipIgnored(): void {
    if (!this.expanded) return
    for (;;) {
      const c = this.peek()
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') this.i++
      else if (c === '#') {
        while (this.i < this.src.length && this.peek() !== '\n') this.i++
      } else return
    }
  }
}

function combine(parts: Shape[]): Shape {
  return { size: parts.reduce((n, p) => n + p.size, 0), unbounded: parts.some((p) => p.unbounded), constraint: false }
}

function checkSize(shape: Shape): Shape {
  if (shape.size > MAX_PATTERN_SIZE) {
    fail(`is too complex: its repetitions expand to more than ${MAX_PATTERN_SIZE} elements (nested counts such as (x{1,50}){1,50} multiply)`)
  }
  return shape
}

function parseBracket(s: Scanner): Shape {
  s.i++ // [
  if (s.peek() === '^') s.i++
  if (s.peek() === ']') s.i++ // a leading ] is a member
  while (s.i < s.src.length) {
    const c = s.peek()
    if (c === ']') {
      s.i++
      return ATOM
    }
    if (c === '[' && (s.peek(1) === ':' || s.peek(1) === '.' || s.peek(1) === '=')) {
      const close = `${s.peek(1)}]`
      const end = s.src.indexOf(close, s.i + 2)
      if (end < 0) fail('has an unterminated [: :], [. .] or [= =] in a bracket expression')
      s.i = end + 2
      continue
    }
    if (c === '\\') s.i++
    s.i++
  }
  return fail('has an unterminated bracket expression: "[" without "]"')
}

function parseEscape(s: Scanner): Shape {
  const c = s.peek(1)
  if (c === undefined) fail('ends with a backslash')
  s.i += 2
  if (c >= '1' && c <= '9') fail(`uses a back-reference (\\${c}), which is not supported: it makes matching slow`)
  if (CONSTRAINT_ESCAPES.has(c)) return CONSTRAINT
  const hex = (max: number) => {
    for (let n = 0; n < max && /[0-9a-fA-F]/.test(s.peek() ?? ''); n++) s.i++
  }
  if (c === 'x') hex(Infinity)
  else if (c === 'u') hex(4)
  else if (c === 'U') hex(8)
  else if (c === 'c') s.i++
  else if (c === '0') for (let n = 0; n < 2 && /[0-7]/.test(s.peek() ?? ''); n++) s.i++
  return ATOM
}

/** `{m}`, `{m,}` or `{m,n}` at the scanner (which is on the `{`). */
function parseBound(s: Scanner): { min: number; max: number } {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(s.src.slice(s.i, s.i + 16))
  if (!m) fail('has a "{" that is not a repetition count such as {2}, {2,} or {2,5}')
  s.i += m[0].length
  const min = Number(m[1])
  const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
  if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) fail(`has a repetition count above ${MAX_REPEAT}`)
  if (min > max) fail('has a repetition count whose lower bound is above its upper bound')
  return { min, max }
}

function parseGroup(s: Scanner, depth: number): Shape {
  s.i++ // (
  let constraint = false
  if (s.peek() === '?') {
    const rest = s.src.slice(s.i + 1, s.i + 3)
    if (rest.startsWith('#')) {
      const end = s.src.indexOf(')', s.i)
      if (end < 0) fail('has an unterminated (?# comment')
      s.i = end + 1
      return EMPTY
    }
    if (rest.startsWith(':')) s.i += 2
    else if (rest.startsWith('=') || rest.startsWith('!')) {
      s.i += 2
      constraint = true
    } else if (rest === '<=' || rest === '<!') {
      s.i += 3
      constraint = true
    } else fail('has "(?" not followed by ":", "=", "!", "<=", "<!" or "#"')
  }
  const inner = parseAlternation(s, depth + 1)
  if (s.peek() !== ')') fail('has unbalanced parentheses: "(" without ")"')
  s.i++
  return constraint ? CONSTRAINT : inner
}

function parseQuantified(s: Scanner, atom: Shape): Shape {
  s.skipIgnored()
  const c = s.peek()
  let repeat: { min: number; max: number } | undefined
  if (c === '*') repeat = { min: 0, max: Infinity }
  else if (c === '+') repeat = { min: 1, max: Infinity }
  else if (c === '?') repeat = { min: 0, max: 1 }
  else if (c === '{' && /[0-9]/.test(s.peek(1) ?? '')) repeat = parseBound(s)
  if (!repeat) return atom
  if (c !== '{') s.i++
  if (s.peek() === '?') s.i++ // non-greedy
  if (atom.constraint) fail('repeats something that cannot be repeated (an anchor or a lookaround)')
  s.skipIgnored()
  const next = s.peek()
  if (next === '*' || next === '+' || next === '?' || (next === '{' && /[0-9]/.test(s.peek(1) ?? ''))) {
    fail('has a quantifier right after another one (such as a** or a+*)')
  }
  if (repeat.max === Infinity && atom.unbounded) {
    fail('nests unbounded repetitions, such as (a+)+ or (\\w*)*, whose matching time can explode')
  }
  const factor = repeat.max === Infinity ? Math.max(1, repeat.min) : Math.max(1, repeat.max)
  return checkSize({ size: atom.size * factor, unbounded: atom.unbounded || repeat.max === Infinity, constraint: false })
}

function parseAtom(s: Scanner, c: string, depth: number): Shape {
  if (c === '(') return parseGroup(s, depth)
  if (c === '[') return parseBracket(s)
  if (c === '\\') return parseEscape(s)
  s.i++
  return c === '^' || c === '$' ? CONSTRAINT : ATOM
}

function parseSequence(s: Scanner, depth: number): Shape {
  const parts: Shape[] = []
  for (;;) {
    s.skipIgnored()
    const c = s.peek()
    if (c === undefined || c === '|') break
    if (c === ')') {
      if (depth === 0) fail('has unbalanced parentheses: ")" without "("')
      break
    }
    if (c === '*' || c === '+' || c === '?' || (c === '{' && /[0-9]/.test(s.peek(1) ?? ''))) {
      fail(`has a quantifier "${c}" with nothing before it to repeat`)
    }
    parts.push(checkSize(parseQuantified(s, parseAtom(s, c, depth))))
    checkSize(combine(parts))
  }
  return combine(parts)
}

function parseAlternation(s: Scanner, depth: number): Shape {
  const branches = [parseSequence(s, depth)]
  while (s.peek() === '|') {
    s.i++
    branches.push(parseSequence(s, depth))
    checkSize(combine(branches))
  }
  return combine(branches)
}

/**
 * Checks a regular expression of a filter (PostgreSQL ARE syntax); throws a `PatternError` whose
 * message completes "regular expression ..." when it is refused. Returns its expanded size.
 */
export function checkPattern(pattern: string): number {
  let rest = pattern
  if (rest.startsWith('***=')) return 0 // the rest is a literal string
  if (rest.startsWith('***:')) rest = rest.slice(4)
  let expanded = false
  const options = /^\(\?([a-z]*)\)/.exec(rest)
  if (options) {
    const letters = options[1]!
    if (!OPTION_LETTERS.test(letters)) fail(`has unknown embedded options "(?${letters})"`)
    if (letters.includes('b')) fail('asks for the basic syntax (option b), which is not supported')
    if (letters.includes('q')) return 0 // literal
    expanded = letters.includes('x')
    rest = rest.slice(options[0].length)
  }
  const s = new Scanner(rest, expanded)
  const shape = parseAlternation(s, 0)
  if (s.i < rest.length) fail('has unbalanced parentheses: ")" without "("')
  return shape.size
}
