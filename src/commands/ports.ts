/**
 * The ports a server command will listen on are tried before anything slow (the database, the
 * migrations): a port already in use, or one the process may not bind, ends the start at once with
 * one line that names the setting to change.
 */
import { createServer } from 'node:net'

export interface PortCheck {
  /** The setting that chose the port, as the operator writes it (PORT, ADMIN_PORT, ...). */
  setting: string
  host: string
  port: number
}

/** Why `port` cannot be bound on `host` (undefined: it can). */
function tryListen(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)))
  })
}

/** Throws an Error whose message is the one line to print when a port cannot be listened on. */
export async function checkPorts(checks: readonly PortCheck[]): Promise<void> {
  for (const { setting, host, port } of checks) {
    if (port === 0) continue // a free port chosen by the system
    const err = await tryListen(host, port)
    if (!err) continue
    const where = `port ${port} on ${host}`
    if (err.code === 'EADDRINUSE') throw new Error(`${where} is already in use (another program, or netinv already running): stop it or set ${setting} to a free port`)
    if (err.code === 'EACCES') throw new Error(`${where} needs privileges this process lacks: set ${setting} to a port above 1023`)
    if (err.code === 'EADDRNOTAVAIL') throw new Error(`${where}: ${host} is no address of this machine`)
    throw new Error(`${where} (${setting}) cannot be listened on: ${err.message}`)
  }
}
