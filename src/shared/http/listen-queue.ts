/**
 * What the kernel holds for a server that node does not show: connections completed on its behalf
 * and not yet accepted (the listen queue), and request bytes received on a connection and not yet
 * read. Closing the listener resets each queued connection, and destroying a connection with
 * unread bytes resets it, although its client may have sent a whole request. Linux shows both in
 * /proc/net/tcp: the rx_queue of a socket, found by the inode of its descriptor.
 */
import { readFileSync, readlinkSync } from 'node:fs'
import type { Server, Socket } from 'node:net'

/** Node's handle of a socket or listening server (not public API; absent or without `fd` elsewhere). */
type Handle = { fd?: number; listen?(backlog: number): number } | null | undefined

function handleOf(endpoint: Server | Socket): Handle {
  return (endpoint as (Server | Socket) & { _handle?: Handle })._handle
}

/** The inode of the socket behind `endpoint`'s descriptor, or undefined. */
function inodeOf(endpoint: Server | Socket): string | undefined {
  const fd = handleOf(endpoint)?.fd
  if (typeof fd !== 'number' || fd < 0) return undefined
  try {
    return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1]
  } catch {
    return undefined
  }
}

/** A reading of the kernel's TCP socket tables: the rx_queue and state of each socket, by inode. */
export class SocketTable {
  private readonly rows = new Map<string, { state: string; rxQueue: number }>()
  /** False where /proc/net/tcp cannot be read (not Linux, or not mounted). */
  readonly known: boolean

  constructor() {
    let known = false
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text: string
      try {
        text = readFileSync(table, 'latin1')
      } catch {
        continue
      }
      known = true
      // "sl local rem st tx_queue:rx_queue tr:when retrnsmt uid timeout inode ..."
      for (const line of text.split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/)
        const inode = fields[9]
        if (inode && inode !== '0') this.rows.set(inode, { state: fields[3] ?? '', rxQueue: parseInt(fields[4]?.split(':')[1] ?? '', 16) })
      }
    }
    this.known = known
  }

  /** Connections waiting in the listen queue of `server` (state 0A, LISTEN); undefined where unknown. */
  queued(server: Server): number | undefined {
    const row = this.rows.get(inodeOf(server) ?? '')
    return row?.state === '0A' ? row.rxQueue : undefined
  }

  /** Bytes received on `socket` and not yet read by node; undefined where unknown. */
  unread(socket: Socket): number | undefined {
    return this.rows.get(inodeOf(socket) ?? '')?.rxQueue
  }
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
  return new SocketTable().queued(server)
}
