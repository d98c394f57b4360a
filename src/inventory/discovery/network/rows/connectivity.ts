/** Rows of discovery/connectivity-report: every address the discovery tried or skipped. */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'

export function* connectivityRows(net: Network): Generator<Row> {
  for (const [i, a] of net.crawl.attempts.entries()) {
    yield {
      id: `${i + 1}`,
      ip: a.address,
      result: a.result,
      credential: a.credential,
      error: a.error,
      durationMs: a.durationMs,
      tries: a.tries,
      source: a.source,
      foundBy: a.foundBy,
      sn: a.sn,
      hostname: a.hostname,
    }
  }
}
