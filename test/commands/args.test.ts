/** The one parser of the command line, with plain values. */
import t from 'tap'
import { distance, integerOption, listOption, parseCommandArgs, renderHelp, suggest, UsageError, type CommandSpec } from '../../src/commands/args.js'

const SPEC: CommandSpec = {
  name: 'query',
  summary: 'query a table',
  positionals: [
    { name: 'table', description: 'the table' },
    { name: 'more', description: 'optional', optional: true },
  ],
  options: {
    columns: { type: 'string', multiple: true, value: 'a,b', description: 'columns' },
    csv: { type: 'boolean', description: 'CSV' },
    limit: { type: 'string', value: 'n', description: 'rows' },
  },
}

const parse = (args: string[]) => parseCommandArgs(SPEC, args)

t.test('values, lists and positionals', async (t) => {
  const p = parse(['devices', '--columns', 'a,b', '--columns=c', '--csv', '--limit', '-5'])
  t.same(p.positionals, ['devices'])
  t.same(p.values, { columns: ['a,b', 'c'], csv: true, limit: '-5' })
  t.same(listOption(p, 'columns', true), ['a', 'b', 'c'])
  t.throws(() => integerOption(p, 'limit', 1), /--limit must be an integer ≥ 1, not "-5"/)
  t.same(parse(['devices', '--', '--csv']).positionals, ['devices', '--csv'], 'words after -- are positionals')
  t.equal(parse(['--help']).help, true, '--help whatever else is missing')
  t.equal(parse(['x', '-h']).help, true)
})

t.test('strict: every mistake is a UsageError naming it', async (t) => {
  const cases: [string[], RegExp][] = [
    [['devices', '--colums', 'a'], /^unknown option --colums \(did you mean --columns\?\)$/],
    [['devices', '--cvs'], /^unknown option --cvs \(did you mean --csv\?\)$/],
    [['devices', '--frobnicate'], /^unknown option --frobnicate$/],
    [['devices', '-x'], /^unknown option -x/],
    [['devices', '--columns'], /^--columns needs a value$/],
    [['devices', '--columns', '--csv'], /^--columns needs a value \(--csv is an option\)$/],
    [['devices', '--csv=yes'], /^--csv takes no value$/],
    [['devices', '--limit', '1', '--limit', '2'], /^--limit is given twice$/],
    [['a', 'b', 'c'], /^unexpected argument "c" after <table> <more>$/],
    [[], /^missing <table>$/],
  ]
  for (const [args, message] of cases) {
    const err = t.throws(() => parse(args), UsageError, args.join(' ')) as unknown
    t.match((err as Error).message, message)
    t.equal((err as UsageError).command, 'query')
  }
})

t.test('suggestions', async (t) => {
  t.equal(distance('snapshot', 'snapshots'), 1)
  t.equal(distance('qeury', 'query'), 1, 'a swap of neighbours is one edit')
  t.equal(suggest('snapshot', ['snapshots', 'serve']), 'snapshots')
  t.equal(suggest('disc', ['discover', 'diff', 'docs']), 'discover', 'a prefix of one name')
  t.equal(suggest('xyz', ['discover', 'diff']), undefined, 'nothing close')
})

t.test('help lists the usage, arguments and every option', async (t) => {
  const help = renderHelp(SPEC)
  t.match(help, /^usage: netinv query <table> \[more\] \[options\]\n/)
  t.match(help, /--columns <a,b> +columns \(repeatable\)/)
  t.match(help, /--csv +CSV/)
  t.match(help, /-h, --help +show this help/)
})
