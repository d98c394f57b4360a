/**
 * The check every regular expression of a filter passes before any database sees it, the same on
 * PostgreSQL and on the embedded database. It reads PostgreSQL's advanced regular expression
 * syntax (ARE) far enough to refuse, in our own words:
 *
 * - patterns whose automaton is too large: an upper bound of its states and transitions (see
 *   `Shape`) is computed from the pattern, and a pattern above `MAX_PATTERN_SIZE` states or
 *   `MAX_PATTERN_TRANSITIONS` transitions is refused. Repetition counts multiply (`(\w{1,255}){1,255}`
 *   has 65,025 states); a count over something that can match nothing (`(.*){1,255}`) makes every
 *   copy a possible successor of every other. This is a bound, not a list of shapes: whatever
 *   passes compiles to at most that much automaton, which PostgreSQL runs in time proportional
 *   to it per character of text;
 * - what the bound cannot price: back-references (`(a*)\1`), which make the engine backtrack, and
 *   unbounded repetitions of something that is itself unbounded or can match nothing (`(a+)+`,
 *   `(a|a?)+`): ambiguous, so exponential for a backtracking engine and slow to compile for
 *   PostgreSQL's, and never needed (`a+`, `a*` say the same);
 * - syntax errors a user makes (unbalanced parentheses or brackets, a quantifier with nothing to
 *   repeat, a bad repetition count), so the answer names the condition.
 *
 * What it lets through may still be refused by the database (an invalid range such as `[z-a]`);
 * that answer is a 422 too. The text's length is bounded where values are read (`operators.ts`).
 */

/**
 * Largest automaton a pattern may compile to: its states (positions: each atom, anchor or
 * lookaround counted once per copy that a repetition count makes) ...
 */
export const MAX_PATTERN_SIZE = 1000
/** ... and its transitions (pairs of positions one character apart; see `Shape`). */
export const MAX_PATTERN_TRANSITIONS = 5000
/** PostgreSQL's largest repetition count (RE_DUP_MAX). */
export const MAX_REPEAT = 255

export class PatternError extends Error {}

/** What a pattern that passed costs: the upper bounds the check compared with its budget. */
export interface PatternCost {
  states: number
  transitions: number
}

/**
 * What a piece of a pattern costs once compiled, as a position automaton (Glushkov's: one state
 * per atom, one transition per pair of atoms that can match one after the other). PostgreSQL's
 * engine compiles a pattern to an NFA whose empty arcs it removes, then runs a DFA built lazily
 * from it: each new DFA state costs a walk over the active NFA states and their arcs, so states
 * plus transitions bound both the work per character and the compilation. The counts are upper
 * bounds computed from the pieces without expanding anything (a repetition count `{m,n}` is
 * folded as PostgreSQL expands it: m copies, then n-m nested optional copies), so a pattern of a
 * thousand characters is priced in microseconds however large its automaton would be.
 *
 * Why the attack `(.*){1,255}(.*){1,255}x` is costly though it has only 511 states: each copy of
 * `.*` can match nothing, so every copy can follow every earlier one (255 × 254 / 2 transitions
 * per half, and 255 × 255 between the halves: about 130,000), where `.{1,255}` (same states, a
 * copy that must match a character) has 509.
 */
interface Shape {
  /** Positions: atoms after expanding repetition counts. */
  states: number
  /** Positions a match can start with / end with (upper bounds). */
  first: number
  last: number
  /** Pairs of positions that can follow each other (upper bound). */
  transitions: number
  /** Whether it can match the empty string. */
  nullable: boolean
  /** Whether it holds an unbounded repetition (`*`, `+`, `{m,}`). */
  unbounded: boolean
  /** A constraint (`^`, `$`, lookaround, `\y`...): nothing to repeat. */
  constraint: boolean
}

const EMPTY: Shape = { states: 0, first: 0, last: 0, transitions: 0, nullable: true, unbounded: false, constraint: false }
const ATOM: Shape = { states: 1, first: 1, last: 1, transitions: 0, nullable: false, unbounded: false, constraint: false }
/** A constraint is an arc of the automaton like an atom; a lookaround adds its own automaton. */
const constraintOf = (inner: Shape = EMPTY): Shape => ({ ...ATOM, states: 1 + inner.states, transitions: inner.transitions, constraint: true })
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

/** `a` then `b`: every end of `a` may be followed by every start of `b`. */
function then(a: Shape, b: Shape): Shape {
  return checkSize({
    states: a.states + b.states,
    first: a.first + (a.nullable ? b.first : 0),
    last: b.last + (b.nullable ? a.last : 0),
    transitions: a.transitions + b.transitions + a.last * b.first,
    nullable: a.nullable && b.nullable,
    unbounded: a.unbounded || b.unbounded,
    constraint: false,
  })
}

/** `a|b`. */
function either(a: Shape, b: Shape): Shape {
  return checkSize({
    states: a.states + b.states,
    first: a.first + b.first,
    last: a.last + b.last,
    transitions: a.transitions + b.transitions,
    nullable: a.nullable || b.nullable,
    unbounded: a.unbounded || b.unbounded,
    constraint: false,
  })
}

const optional = (a: Shape): Shape => ({ ...a, nullable: true })

/** `a+` (or `a*` with `nullable`): every end of `a` may be followed by every start of it. */
function loop(a: Shape, nullable: boolean): Shape {
  return checkSize({ ...a, transitions: a.transitions + a.last * a.first, nullable: a.nullable || nullable, unbounded: true, constraint: false })
}

/** `a{min,max}` as PostgreSQL expands it: `min` copies, then `max - min` nested optional ones (or a loop). */
function repeat(a: Shape, min: number, max: number): Shape {
  let shape = EMPTY
  if (max === Infinity) {
    for (let n = 1; n < min; n++) shape = then(shape, a)
    return then(shape, loop(a, min === 0))
  }
  let tail = EMPTY
  for (let n = min; n < max; n++) tail = optional(then(a, tail))
  for (let n = 0; n < min; n++) shape = then(shape, a)
  return then(shape, tail)
}

function checkSize(shape: Shape): Shape {
  if (shape.states > MAX_PATTERN_SIZE) {
    fail(`is too complex: its repetitions multiply to more than ${MAX_PATTERN_SIZE} states (nested counts such as (x{1,50}){1,50} multiply)`)
  }
  if (shape.transitions > MAX_PATTERN_TRANSITIONS) {
    fail(
      `is too complex: its repetitions multiply to more than ${MAX_PATTERN_TRANSITIONS} transitions between states ` +
        '(repeating something that can match nothing, such as (.*){1,100}, lets every copy follow every other)',
    )
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
  if (CONSTRAINT_ESCAPES.has(c)) return constraintOf()
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
  let lookahead = false
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
      lookahead = true
    } else if (rest === '<=' || rest === '<!') {
      s.i += 3
      constraint = true
    } else fail('has "(?" not followed by ":", "=", "!", "<=", "<!" or "#"')
  }
  const inner = parseAlternation(s, depth + 1)
  if (s.peek() !== ')') fail('has unbalanced parentheses: "(" without ")"')
  s.i++
  // PostgreSQL keeps no state of its automaton that passed through a lookahead, so it runs the
  // lookahead again from every position: an unbounded one reads the rest of the value each time,
  // quadratic in the value's length ((?=.*x) on 16,000 characters: 0.8 s, on 64 KiB: about 12 s).
  // Lookbehinds are matched up to the position only and stay.
  if (lookahead && inner.unbounded) fail('has a lookahead with an unbounded repetition (*, + or {m,}), which is matched again from every position of the value; bound it, such as (?=.{0,50}x)')
  return constraint ? constraintOf(inner) : inner
}

function parseQuantified(s: Scanner, atom: Shape): Shape {
  s.skipIgnored()
  const c = s.peek()
  let bound: { min: number; max: number } | undefined
  if (c === '*') bound = { min: 0, max: Infinity }
  else if (c === '+') bound = { min: 1, max: Infinity }
  else if (c === '?') bound = { min: 0, max: 1 }
  else if (c === '{' && /[0-9]/.test(s.peek(1) ?? '')) bound = parseBound(s)
  if (!bound) return atom
  if (c !== '{') s.i++
  if (s.peek() === '?') s.i++ // non-greedy
  if (atom.constraint) fail('repeats something that cannot be repeated (an anchor or a lookaround)')
  s.skipIgnored()
  const next = s.peek()
  if (next === '*' || next === '+' || next === '?' || (next === '{' && /[0-9]/.test(s.peek(1) ?? ''))) {
    fail('has a quantifier right after another one (such as a** or a+*)')
  }
  if (bound.max === Infinity && atom.unbounded) {
    fail('nests unbounded repetitions, such as (a+)+ or (\\w*)*, whose matching time can explode')
  }
  if (bound.max === Infinity && atom.nullable) {
    fail('repeats without bound something that can match nothing, such as (a|a?)+ or (a?)*, whose matching time can explode')
  }
  return repeat(atom, bound.min, bound.max)
}

function parseAtom(s: Scanner, c: string, depth: number): Shape {
  if (c === '(') return parseGroup(s, depth)
  if (c === '[') return parseBracket(s)
  if (c === '\\') return parseEscape(s)
  s.i++
  return c === '^' || c === '$' ? constraintOf() : ATOM
}

function parseSequence(s: Scanner, depth: number): Shape {
  let shape = EMPTY
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
    shape = then(shape, parseQuantified(s, parseAtom(s, c, depth)))
  }
  return shape
}

function parseAlternation(s: Scanner, depth: number): Shape {
  let shape = parseSequence(s, depth)
  while (s.peek() === '|') {
    s.i++
    shape = either(shape, parseSequence(s, depth))
  }
  return shape
}

/**
 * Checks a regular expression of a filter (PostgreSQL ARE syntax); throws a `PatternError` whose
 * message completes "regular expression ..." when it is refused. Returns what it costs.
 */
export function checkPattern(pattern: string): PatternCost {
  let rest = pattern
  if (rest.startsWith('***=')) return { states: 0, transitions: 0 } // the rest is a literal string
  if (rest.startsWith('***:')) rest = rest.slice(4)
  let expanded = false
  const options = /^\(\?([a-z]*)\)/.exec(rest)
  if (options) {
    const letters = options[1]!
    if (!OPTION_LETTERS.test(letters)) fail(`has unknown embedded options "(?${letters})"`)
    if (letters.includes('b')) fail('asks for the basic syntax (option b), which is not supported')
    if (letters.includes('q')) return { states: 0, transitions: 0 } // literal
    expanded = letters.includes('x')
    rest = rest.slice(options[0].length)
  }
  const s = new Scanner(rest, expanded)
  const shape = parseAlternation(s, 0)
  if (s.i < rest.length) fail('has unbalanced parentheses: ")" without "("')
  return { states: shape.states, transitions: shape.transitions }
}
