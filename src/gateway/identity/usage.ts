/**
 * API-key usage (last used, count) counted in memory and written in one batched statement every
 * few seconds and at close: never a database write per request.
 */
import type { Logger } from 'pino'
import type { ApiKeyStore } from './api-keys.js'
import type { Clock } from './types.js'

export class UsageRecorder {
  private pending = new Map<string, { count: number; lastUsedAt: number }>()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: Clock,
    private readonly log: Logger,
    intervalMs = 5000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  record(keyId: string): void {
    const entry = this.pending.get(keyId)
    const now = this.clock()
    if (entry) {
      entry.count++
      entry.lastUsedAt = now
    } else this.pending.set(keyId, { count: 1, lastUsedAt: now })
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return
    const batch = [...this.pending].map(([id, v]) => ({ id, ...v }))
    this.pending = new Map()
    try {
      await this.keys.addUsage(batch)
    } catch (err) {
      this.log.warn({ err }, 'API key usage could not be saved')
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
