/**
 * What the lab's `pass_persist` agents (route-agent.ts, bridge-agent.ts) share: snmpd's side of
 * the protocol (PING, get, getnext, set refused) over a sorted list of rows that `load()` fills,
 * as plain JavaScript appended to each agent's script.
 */
export const PASS_PERSIST_LOOP = String.raw`
function compare(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

// rows sorted by OID, one per OID (the first wins)
function sortRows(out) {
  const seen = new Set()
  return out.sort((a, b) => compare(a.oid, b.oid)).filter((r) => {
    const key = r.oid.join('.')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const parse = (text) => text.trim().replace(/^\./, '').split('.').filter((x) => x !== '').map(Number)
const answer = (row) => (row ? '.' + row.oid.join('.') + '\n' + row.value[0] + '\n' + row.value[1] + '\n' : 'NONE\n')

const lines = createInterface({ input: process.stdin })
let pending = null
lines.on('line', (line) => {
  if (pending === null) {
    const cmd = line.trim()
    if (cmd === 'PING') process.stdout.write('PONG\n')
    else if (cmd === 'get' || cmd === 'getnext' || cmd === 'set') pending = { cmd, lines: [] }
    else if (cmd === '') process.exit(0)
    return
  }
  pending.lines.push(line)
  if (pending.cmd === 'set' && pending.lines.length < 2) return
  const { cmd, lines: args } = pending
  pending = null
  if (cmd === 'set') return void process.stdout.write('not-writable\n')
  try {
    load()
  } catch {
    return void process.stdout.write('NONE\n')
  }
  const oid = parse(args[0])
  if (cmd === 'get') process.stdout.write(answer(rows.find((r) => compare(r.oid, oid) === 0)))
  else process.stdout.write(answer(rows.find((r) => compare(r.oid, oid) > 0)))
})
lines.on('close', () => process.exit(0))
`
