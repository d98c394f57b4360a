/**
 * `netinv --help` and docs/cli.md, both from the command table's declarations (a test fails when
 * the committed docs/cli.md differs; `npm run docs` rewrites it).
 */
import { renderHelp, type Command } from './args.js'

export const CLI_DOC_PATH = 'docs/cli.md'

/** The client commands' environment, shown in both. */
const ENVIRONMENT = [
  ['NETINV_URL', 'address of the API (default: the last `netinv login`, else http://localhost:8080)'],
  ['NETINV_TOKEN', 'an API key, sent as X-API-Token (wins over a stored login)'],
  ['NETINV_USERNAME', '`netinv login`: the user when --username is not given'],
  ['NETINV_PASSWORD', '`netinv login`, `netinv user`: the password (else asked on a terminal, or the first line of stdin)'],
  ['XDG_CONFIG_HOME', 'the stored login is `$XDG_CONFIG_HOME/netinv/session.json` (default `~/.config`), mode 0600'],
] as const

export function renderTopHelp(commands: Readonly<Record<string, Command>>): string {
  const names = Object.keys(commands)
  const width = Math.max(...names.map((n) => n.length))
  const lines = ['usage: netinv <command> [options]', '       netinv <command> --help', '       netinv --version', '', 'commands:']
  for (const name of names) lines.push(`  ${name.padEnd(width)}  ${commands[name]!.summary}`)
  lines.push('', 'environment of the client commands:')
  const envWidth = Math.max(...ENVIRONMENT.map(([n]) => n.length))
  for (const [n, text] of ENVIRONMENT) lines.push(`  ${n.padEnd(envWidth)}  ${text.replace(/`/g, '')}`)
  return lines.join('\n') + '\n'
}

export function renderCliDoc(commands: Readonly<Record<string, Command>>): string {
  const out = [
    '# Command line',
    '',
    '<!-- Generated from the command table (src/commands/) by `npm run docs`; do not edit by hand. -->',
    '',
    'One binary, `netinv`, runs the servers, the administration helpers that work on this machine\'s',
    'database, and a client of the HTTP API (`login`, `snapshots`, `discover`, `query`, `diff`) that',
    'never touches the database. Every command takes `--help` (printed on stdout, exit status 0);',
    'an unknown option, a missing value or a surplus argument is an error with the nearest known',
    'name as a suggestion (exit status 2); an error answered by the API is printed as its message',
    '(exit status 1). `netinv --version` prints the release.',
    '',
    '| Command | What it does |',
    '|---|---|',
    ...Object.entries(commands).map(([name, c]) => `| [\`${name}\`](#netinv-${name}) | ${c.summary.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;')} |`),
    '',
    '## Environment of the client commands',
    '',
    '| Variable | Meaning |',
    '|---|---|',
    ...ENVIRONMENT.map(([n, text]) => `| \`${n}\` | ${text} |`),
    '',
  ]
  for (const [name, c] of Object.entries(commands)) {
    out.push(`## netinv ${name}`, '', '```text', renderHelp({ ...c, name }).trimEnd(), '```', '')
  }
  return out.join('\n')
}
