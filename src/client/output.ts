/**
 * What the client commands print: aligned text tables (widths from the header and the first rows,
 * so that pages stream), and the progress of a job — a bar redrawn in place on a terminal, plain
 * lines when the output is a file or a pipe.
 */
import type { Row } from './tables.js'

/**
 * A text from the server as a terminal may show it: control characters (C0 but tab and line
 * breaks, DEL, C1) as `\xNN`. Device names and descriptions come from the network, where anyone
 * with a port can set them, and an escape sequence printed raw would drive the terminal (move the
 * cursor, rewrite what was shown, set the clipboard).
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/** A value as a cell: null empty, objects and arrays as JSON, no line breaks, printable. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return printable(JSON.stringify(value))
  return printable(String(value).replace(/[\r\n\t]+/g, ' '))
}

/** Longest cell kept whole when computing widths (longer ones overflow their column). */
const MAX_WIDTH = 60

export class TextTable {
  private widths: number[] | undefined

  constructor(
    private readonly columns: readonly string[],
    private readonly out: NodeJS.WritableStream,
  ) {}

  /** Writes rows; the first call fixes the widths (with the header) and writes the header. */
  write(rows: readonly Row[], cell: (row: Row, column: string) => string = (r, c) => cellText(r[c])): void {
    const cells = rows.map((r) => this.columns.map((c) => cell(r, c)))
    if (!this.widths) {
      this.widths = this.columns.map((c, i) => Math.min(MAX_WIDTH, Math.max(c.length, ...cells.map((line) => line[i]!.length))))
      this.line(this.columns)
    }
    for (const line of cells) this.line(line)
  }

  /** The header alone when no row came. */
  end(): void {
    if (!this.widths) this.write([])
  }

  private line(cells: readonly string[]): void {
    const last = cells.length - 1
    this.out.write(cells.map((c, i) => (i === last ? c : c.padEnd(this.widths![i]!))).join('  ') + '\n')
  }
}

export interface ProgressStream extends NodeJS.WritableStream {
  isTTY?: boolean
  columns?: number
}

/** The bar of a fraction in `width` characters: `[#######-------]  45%`. */
export function progressBar(fraction: number, width: number): string {
  const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0))
  const inner = Math.max(10, width - 7)
  const done = Math.round(f * inner)
  return `[${'#'.repeat(done)}${'-'.repeat(inner - done)}] ${String(Math.floor(f * 100)).padStart(3)}%`
}

/**
 * Reports a job's progress on `out`: on a terminal one line redrawn in place (bar, percent, the
 * job's message); otherwise a line each time the percent or the message changes.
 */
export class ProgressReporter {
  private last = ''
  private drawn = false

  constructor(private readonly out: ProgressStream) {}

  get tty(): boolean {
    return this.out.isTTY === true
  }

  update(status: string, fraction: number, raw: string | null): void {
    const message = raw === null ? null : cellText(raw)
    const percent = Math.floor(Math.max(0, Math.min(1, fraction)) * 100)
    if (this.tty) {
      const columns = this.out.columns && this.out.columns > 20 ? this.out.columns : 80
      const bar = progressBar(fraction, Math.min(40, Math.floor(columns / 2)))
      const text = `${bar} ${status}${message ? `: ${message}` : ''}`
      this.out.write(`\r${text.slice(0, columns - 1).padEnd(columns - 1)}`)
      this.drawn = true
      return
    }
    const line = `${status} ${percent}%${message ? ` ${message}` : ''}`
    if (line === this.last) return
    this.last = line
    this.out.write(`${line}\n`)
  }

  /** Ends the bar's line on a terminal. */
  done(): void {
    if (this.drawn) this.out.write('\n')
    this.drawn = false
  }
}
