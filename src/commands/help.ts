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

/** The guide to the client commands in docs/cli.md (their options follow, from the table). */
const CLIENT_GUIDE = `## The client commands

\`login\`, \`logout\`, \`snapshots\`, \`discover\`, \`query\` and \`diff\` talk to the public HTTP API
only, so they work from any machine that reaches the gateway.

**Address and credentials.** The address is \`--url\`, else \`NETINV_URL\`, else the address of the
last \`netinv login\`, else http://localhost:8080 (\`http://host:8080/api\` means the same). The
credentials are \`NETINV_TOKEN\` (an API key, sent as \`X-API-Token\`; what scripts should use), else
the stored login to that address. \`netinv login\` follows the client flow of the API: \`POST
auth/login\` gives an access and a refresh token, stored in \`$XDG_CONFIG_HOME/netinv/session.json\`
(default \`~/.config/netinv/\`; the file is mode 0600 in a 0700 directory, one login per address).
When the API answers 401 \`API_EXPIRED_ACCESS_TOKEN\`, the client calls \`POST auth/token\` with the
refresh token, stores the new pair (the refresh token rotates) and sends the request again; when
the refresh token is no longer valid it asks you to log in again. \`netinv logout\` revokes the
refresh token (\`POST auth/logout\`) and forgets the login.

**Tables.** \`query\` and \`diff --table\` take a table by its path (\`inventory/interfaces\`), by its
name in the inventory group (\`interfaces\`, \`devices\`, \`sites\`) or by the end of exactly one path
(\`bgp/neighbors\`); \`netinv query --tables\` lists them. Without \`--columns\`, every column of the
table. \`--filter column:operator:value\` (the value is everything after the second colon, so
addresses keep theirs; numbers, booleans and \`null\` are typed by the column) or a JSON filter
object (\`{"or": [...]}\`, any operator of [docs/tables.md](tables.md)); several \`--filter\` are ANDed.
\`--sort column\`, \`column:desc\` or \`-column\`. Without \`--limit\`, every matching row is fetched in
pages of 1000 (\`--page-size\`) and printed as it comes; \`--csv\` is the server's CSV export, streamed,
and held to the row count the export ends with (its \`X-Row-Count\` trailer, see
[docs/tables.md](tables.md)): an export cut short (the connection lost, the database gone mid-export,
or fewer rows than the trailer says) exits 1 with \`the export was cut after N rows\` or
\`the export holds N rows of the M the server sent\`, whatever it already wrote to stdout.

**Output.** Results go to stdout (text tables, \`--json\` one object per line, or \`--csv\`); progress
and messages go to stderr. \`discover\` draws a progress bar when stderr is a terminal and writes a
line per step otherwise, then prints the snapshot id on stdout (\`SNAP=$(netinv discover ...)\`); it
exits 1 when the discovery ends in error.

**Comparing snapshots.** \`netinv diff <a> <b>\` prints, per table, the rows added, removed and
changed from snapshot a to snapshot b (\`GET snapshots/{b}/changes?against=<a>\`; a may be \`$prev\`:
the snapshot before b of the same network); the text lists the tables that changed, \`--json\` and
\`--csv\` every table. With \`--table\`, the rows themselves (\`POST
tables/<path>\` with \`"compare": {"snapshot": a}\`): the \`change\` column, and in text \`old → new\` in
every column that changed; \`--change added,removed\` keeps some kinds; \`--json\` rows carry the
\`diff\` object. Quote \`$prev\` and \`$last\` in a shell.

**Exit status.** 0 success; 1 an error of the API (printed as the message of its error body, with
the HTTP status and code, and every validation message of a 422) or an API that cannot be reached;
2 a mistake on the command line.
`

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
    CLIENT_GUIDE,
  ]
  for (const [name, c] of Object.entries(commands)) {
    out.push(`## netinv ${name}`, '', '```text', renderHelp({ ...c, name }).trimEnd(), '```', '')
  }
  return out.join('\n')
}
