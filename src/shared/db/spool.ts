/**
 * Batches of rows kept on disk until their reader wants them: the embedded database runs one
 * statement at a time, so a cursor read at the pace of its consumer (a CSV export to a client that
 * reads slowly, or not at all) would hold every other user's statement for as long as that client
 * likes. The rows are spooled as fast as the database gives them, the database's turn ends, and
 * the consumer reads the spool at its own pace. Each batch is kept as V8 serializes it (what the
 * worker thread handed over, dates and all), behind its length; the file lives in the process's
 * temporary directory, readable by its owner only, and is removed when read or given up.
 */
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'

export class RowSpool<T> {
  private size = 0

  private constructor(
    private readonly dir: string,
    private readonly file: FileHandle,
  ) {}

  static async create<T>(): Promise<RowSpool<T>> {
    const dir = await mkdtemp(join(tmpdir(), 'netinv-spool-'))
    const file = await open(join(dir, 'rows'), 'w+', 0o600)
    return new RowSpool<T>(dir, file)
  }

  /** Appends one batch. */
  async write(rows: readonly T[]): Promise<void> {
    const body = serialize(rows)
    const head = Buffer.alloc(4)
    head.writeUInt32BE(body.length)
    await this.file.write(Buffer.concat([head, body]), 0, 4 + body.length, this.size)
    this.size += 4 + body.length
  }

  /** Hands the batches to `onBatch` in order, each after the last one's promise settled; then removes the spool. */
  async drain(onBatch: (rows: T[]) => Promise<void>): Promise<void> {
    try {
      const head = Buffer.alloc(4)
      for (let at = 0; at < this.size; ) {
        await this.file.read(head, 0, 4, at)
        const length = head.readUInt32BE(0)
        const body = Buffer.alloc(length)
        await this.file.read(body, 0, length, at + 4)
        at += 4 + length
        await onBatch(deserialize(body) as T[])
      }
    } finally {
      await this.remove()
    }
  }

  /** Removes the spool unread. */
  async remove(): Promise<void> {
    await this.file.close().catch(() => {})
    await rm(this.dir, { recursive: true, force: true })
  }
}
