/**
 * The one argument parser of the command line: every command declares its options and
 * positionals, node:util parseArgs splits the words, and this module makes it strict (an unknown
 * option, a missing value or a surplus argument is a UsageError, with the nearest known name as a
 * suggestion) and renders `--help` from the same declaration.
 */
import { parseArgs } from 'node:util'
import type { CommandIo } from './io.js'
import { distance, suggest } from '../shared/suggest.js'

export interface OptionSpec {
  type: 'string' | 'boolean'
  /** One line for --help and docs/cli.md. */
  description: string
  /** Name of the value in help (`--limit <n>`); strings only. */
  value?: string
  /** Repeatable: the values come as a list. */
  multiple?: boolean
  short?: string
}

export interface PositionalSpec {
  name: string
  description: string
  optional?: boolean
}

export interface CommandSpec {
  name: string
  summary: string
  /** Paragraphs of --help after the usage line. */
  description?: string
  positionals?: readonly PositionalSpec[]
  options?: Readonly<Record<string, OptionSpec>>
  /** Lines shown under "examples:". */
  examples?: readonly string[]
}

export interface Parsed {
  positionals: string[]
  /** Strings (lists for `multiple`) and booleans by option name; absent when not given. */
  values: Record<string, string | string[] | boolean | undefined>
  help: boolean
}

/** A mistake in the command line: printed with a pointer to --help, exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message)
    this.name = 'UsageError'
  }
}

export { distance, suggest }

export const didYouMean = (word: string, known: Iterable<string>): string => {
  const s = suggest(word, known)
  return s === undefined ? '' : ` (did you mean ${s}?)`
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' }

function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, help: HELP }
}

/** Parses `args` against `spec`; throws UsageError for anything it does not declare. */
export function parseCommandArgs(spec: CommandSpec, args: readonly string[]): Parsed {
  const options = optionsOf(spec)
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]),
  )
  const { values, positionals, tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true })
  if (values.help === true) return { positionals, values: {}, help: true }
  const fail = (message: string) => new UsageError(message, spec.name)
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) throw fail(`unknown option ${token.rawName}${didYouMean(`--${token.name}`, Object.keys(options).map((n) => `--${n}`))}`)
    if (option.type === 'boolean' && token.value !== undefined) throw fail(`${token.rawName} takes no value`)
    if (option.type === 'string') {
      if (token.value === undefined) throw fail(`${token.rawName} needs a value`)
      // `--columns --csv`: the next word is an option, not a value (write --columns=--x for such a value)
      if (!token.inlineValue && token.value.startsWith('--')) throw fail(`${token.rawName} needs a value (${token.value} is an option)`)
      if (!option.multiple && tokens.filter((t) => t.kind === 'option' && t.name === token.name).length > 1) throw fail(`${token.rawName} is given twice`)
    }
  }
  const declared = spec.positionals ?? []
  const required = declared.filter((p) => !p.optional).length
  if (positionals.length > declared.length) {
    const extra = positionals[declared.length]!
    throw fail(declared.length === 0 ? `unexpected argument "${extra}"` : `unexpected argument "${extra}" after ${declared.map((p) => `<${p.name}>`).join(' ')}`)
  }
  if (positionals.length < required) throw fail(`missing <${declared[positionals.length]!.name}>`)
  delete values.help
  return { positionals, values: values as Parsed['values'], help: false }
}

function optionLabel(name: string, o: OptionSpec): string {
  const short = o.short ? `-${o.short}, ` : ''
  return `${short}--${name}${o.type === 'string' ? ` <${o.value ?? 'value'}>` : ''}`
}

export function usageLine(spec: CommandSpec): string {
  const positionals = (spec.positionals ?? []).map((p) => (p.optional ? `[${p.name}]` : `<${p.name}>`))
  const options = Object.keys(spec.options ?? {}).length > 0 ? ' [options]' : ''
  return `netinv ${spec.name}${positionals.length > 0 ? ' ' + positionals.join(' ') : ''}${options}`
}

/** The text of `netinv <command> --help`. */
export function renderHelp(spec: CommandSpec): string {
  const lines = [`usage: ${usageLine(spec)}`, '', spec.summary]
  if (spec.description) lines.push('', spec.description)
  const positionals = spec.positionals ?? []
  if (positionals.length > 0) {
    lines.push('', 'arguments:')
    const width = Math.max(...positionals.map((p) => p.name.length + 2))
    for (const p of positionals) lines.push(`  ${`<${p.name}>`.padEnd(width)}  ${p.description}`)
  }
  const options = Object.entries(optionsOf(spec))
  lines.push('', 'options:')
  const width = Math.max(...options.map(([n, o]) => optionLabel(n, o).length))
  for (const [n, o] of options) lines.push(`  ${optionLabel(n, o).padEnd(width)}  ${o.description}${o.multiple ? ' (repeatable)' : ''}`)
  if (spec.examples && spec.examples.length > 0) lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`))
  return lines.join('\n') + '\n'
}

/** A string option's value (the last one when repeatable), or `fallback`. */
export function stringOption(p: Parsed, name: string): string | undefined {
  const v = p.values[name]
  return Array.isArray(v) ? v[v.length - 1] : typeof v === 'string' ? v : undefined
}

/** A repeatable string option's values (`--columns a,b --columns c` → [a, b, c] with `split`). */
export function listOption(p: Parsed, name: string, split = false): string[] {
  const v = p.values[name]
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : []
  return split ? list.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '') : list
}

/** An integer option within [min, max]; UsageError otherwise. */
export function integerOption(p: Parsed, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const text = stringOption(p, name)
  if (text === undefined) return undefined
  const n = Number(text)
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer${max === Number.MAX_SAFE_INTEGER ? ` ≥ ${min}` : ` from ${min} to ${max}`}, not "${text}"`)
  }
  return n
}

export const flag = (p: Parsed, name: string): boolean => p.values[name] === true

/**
 * A command of the table: its declaration (without its name, which is its key in the table), and
 * `run` with the words after its name. The command line checks the words against the declaration
 * before `run` (a command without options or positionals takes no words).
 */
export interface Command extends Omit<CommandSpec, 'name'> {
  /** Returns an exit code, or -1 for a long-running server that exits on a signal. */
  run(args: string[], io: CommandIo): Promise<number>
}

/** Prints a UsageError the way every command does; returns exit status 2. */
export function reportUsageError(err: UsageError, stderr: NodeJS.WritableStream): number {
  const who = err.command ? `netinv ${err.command}` : 'netinv'
  stderr.write(`${who}: ${err.message}\nrun "${who} --help" for usage\n`)
  return 2
}

/**
 * Parses the words of `name` against its declaration and runs it: `--help` prints the help on
 * stdout (exit 0), a usage mistake (from the parser or the command) is reported on stderr with
 * exit status 2.
 */
export async function runCommand(name: string, command: Command, args: string[], io: CommandIo): Promise<number> {
  const spec: CommandSpec = { ...command, name }
  try {
    if (parseCommandArgs(spec, args).help) {
      io.stdout.write(renderHelp(spec))
      return 0
    }
    return await command.run(args, io)
  } catch (err) {
    if (err instanceof UsageError) return reportUsageError(err.command ? err : new UsageError(err.message, name), io.stderr)
    throw err
  }
}

/**
 * A command whose `run` gets its words parsed against `spec` (so that it is strict when called
 * directly too); a UsageError it throws is reported with exit status 2.
 */
export function defineCommand(spec: CommandSpec, handler: (p: Parsed, io: CommandIo) => Promise<number>): Command {
  const { name: _name, ...declaration } = spec
  return {
    ...declaration,
    async run(args, io) {
      try {
        const parsed = parseCommandArgs(spec, args)
        if (!parsed.help) return await handler(parsed, io)
        io.stdout.write(renderHelp(spec))
        return 0
      } catch (err) {
        if (err instanceof UsageError) return reportUsageError(err.command ? err : new UsageError(err.message, spec.name), io.stderr)
        throw err
      }
    },
  }
}
