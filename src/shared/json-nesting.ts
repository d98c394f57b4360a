/**
 * How deep JSON text nests arrays and objects, measured on its bytes as they arrive, before
 * anything parses it: a line of 14 MB nested 7 million deep cost JSON.parse 38 s and hundreds of
 * MB for a structure that was refused anyway. One pass, no allocation; brackets inside strings
 * (and escaped quotes in them) do not count. The text need not be valid JSON: the parser judges
 * that afterwards, this only refuses what is too deep to be worth parsing.
 */
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

export class JsonNesting {
  private depth = 0
  private inString = false
  private escaped = false

  constructor(readonly max: number) {}

  /** Starts a new text (the next line). */
  reset(): void {
    this.depth = 0
    this.inString = false
    this.escaped = false
  }

  /** Reads `bytes[start, end)`; false once the text has nested deeper than `max`. */
  feed(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    for (let i = start; i < end; i++) {
      const b = bytes[i]!
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (b === BACKSLASH) this.escaped = true
        else if (b === QUOTE) this.inString = false
      } else if (b === QUOTE) this.inString = true
      else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
        if (++this.depth > this.max) return false
      } else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && this.depth > 0) this.depth--
    }
    return true
  }
}
