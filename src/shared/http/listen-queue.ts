/**
 * The listen queue of a server as the kernel sees it: connections completed on its behalf and
 * not yet accepted. Node says nothing of them; closing the listener resets each one, although
 * its client may have sent a whole request. Linux shows the queue's length in /proc/net/tcp (the
 * rx_queue of the listening socket, found by the inode of the server's descriptor).
 */
import { readFileSync, readlinkSync } from 'node:fs'
import type { Server } from 'node:net'

/** Node's handle of a listening server (not public API; absent or without `fd` elsewhere). */
type Handle = { fd?: number; listen?(backlog: number): number } | null | undefined

function handleOf(server: Server): Handle {
  return (server as Server & { _handle?: Handle })._handle
}

/**
 * Lets no new connection into the queue: listen() again with a backlog of 0 keeps the queued
 * connections and makes the kernel drop new attempts (clients retry them, and are refused once the
 * listener has closed). False where node's handle does not offer it.
 */
export function stopQueueing(server: Server): boolean {
  const handle = handleOf(server)
  return typeof handle?.listen === 'function' && handle.listen(0) === 0
}

/** Connections waiting in the listen queue of `server`; undefined where that cannot be known. */
export function queuedConnections(server: Server): number | undefined {
  const fd = handleOf(server)?.fd
  if (typeof fd !== 'number' || fd < 0) return undefined
  try {
    const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1]
    if (inode === undefined) return undefined
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      const text = readFileSync(table, 'latin1')
      for (let at = text.indexOf(` ${inode} `); at >= 0; at = text.indexOf(` ${inode} `, at + 1)) {
        // "sl local rem st tx_queue:rx_queue tr:when retrnsmt uid timeout inode ..."; st 0A: LISTEN
        const end = text.indexOf('\n', at)
        const fields = text.slice(text.lastIndexOf('\n', at) + 1, end < 0 ? undefined : end).trim().split(/\s+/)
        if (fields[9] === inode && fields[3] === '0A') return parseInt(fields[4]?.split(':')[1] ?? '', 16)
      }
    }
  } catch {
    // No /proc (not Linux, or not mounted).
  }
  return undefined
}
