/** Text tables and job progress, written to in-memory streams. */
import t from 'tap'
import { PassThrough } from 'node:stream'
import { ProgressReporter, TextTable, cellText, printable, progressBar, type ProgressStream } from '../../src/client/output.js'

function sink(tty: boolean): { stream: ProgressStream; text: () => string } {
  const stream = new PassThrough() as PassThrough & ProgressStream
  let text = ''
  stream.on('data', (c: Buffer) => (text += c.toString()))
  if (tty) Object.assign(stream, { isTTY: true, columns: 60 })
  return { stream, text: () => text }
}

t.test('cells and tables', async (t) => {
  t.equal(cellText(null), '')
  t.equal(cellText([{ ip: '10.0.0.1' }]), '[{"ip":"10.0.0.1"}]')
  t.equal(cellText('a\nb'), 'a b')
  // what the network names a device must not drive the terminal it is shown on
  t.equal(cellText('sw1\u001b]52;c;ZWNobyBoaQ==\u0007'), 'sw1\\x1b]52;c;ZWNobyBoaQ==\\x07')
  t.equal(cellText({ name: 'r\u009b2J' }), '{"name":"r\\x9b2J"}', 'C1 controls too, inside JSON')
  t.equal(printable('line 1\nline 2\u007f'), 'line 1\nline 2\\x7f', 'line breaks of a message stay')
  t.equal(cellText('é 😀 ok'), 'é 😀 ok')
  const out = sink(false)
  const table = new TextTable(['name', 'n'], out.stream)
  table.write([{ name: 'a', n: 1 }, { name: 'bbbb', n: null }])
  table.write([{ name: 'cccccc', n: 3 }])
  t.equal(out.text(), 'name  n\na     1\nbbbb  \ncccccc  3\n', 'widths from the header and the first page; later cells overflow')
  const empty = sink(false)
  new TextTable(['x', 'y'], empty.stream).end()
  t.equal(empty.text(), 'x  y\n')
})

t.test('a bar on a terminal, lines elsewhere', async (t) => {
  t.equal(progressBar(0.5, 27), '[##########----------]  50%')
  t.equal(progressBar(2, 17), '[##########] 100%')
  t.equal(progressBar(Number.NaN, 17), '[----------]   0%')
  const file = sink(false)
  const plain = new ProgressReporter(file.stream)
  plain.update('running', 0.1, 'loading a')
  plain.update('running', 0.1, 'loading a')
  plain.update('running', 0.5, 'loading b')
  plain.update('running', 0.6, 'host \u001b[2Jx')
  plain.update('done', 1, null)
  plain.done()
  t.equal(file.text(), 'running 10% loading a\nrunning 50% loading b\nrunning 60% host \\x1b[2Jx\ndone 100%\n', 'a line when something changed')
  const term = sink(true)
  const bar = new ProgressReporter(term.stream)
  bar.update('running', 0.25, 'loading a')
  bar.update('done', 1, null)
  bar.done()
  const frames = term.text().split('\r').filter((f) => f !== '')
  t.equal(frames.length, 2, 'redrawn in place')
  t.match(frames[0], /^\[#+-+\] {2}25% running: loading a +$/)
  t.equal(frames[0]!.length, 59, 'as wide as the terminal, less one')
  t.match(frames[1], /^\[#+\] 100% done +\n$/)
})
