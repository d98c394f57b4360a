/**
 * What the start-up log says of a listener: the address it is bound to, and the addresses a user
 * opens. A listener bound to every address (0.0.0.0, ::) is opened as localhost on this machine
 * and by one of the machine's own addresses from elsewhere, never as the bind address itself.
 */
import { networkInterfaces } from 'node:os'

export interface Listening {
  /** host:port as bound, with a word when it means every address. */
  bind: string
  /** The address to open on this machine. */
  url: string
  /** Every address to open: this machine's first, then its other addresses (wildcard binds only). */
  urls: string[]
}

const hostPart = (host: string) => (host.includes(':') ? `[${host}]` : host)

export function listening(host: string, port: number, interfaces = networkInterfaces()): Listening {
  const wildcard = host === '0.0.0.0' || host === '::'
  if (!wildcard) {
    const url = `http://${hostPart(host)}:${port}`
    return { bind: `${hostPart(host)}:${port}`, url, urls: [url] }
  }
  const families = host === '::' ? ['IPv4', 'IPv6'] : ['IPv4']
  const own = Object.values(interfaces)
    .flat()
    .filter((i) => i && !i.internal && families.includes(i.family) && !(i.family === 'IPv6' && i.scopeid))
    .map((i) => `http://${hostPart(i!.address)}:${port}`)
  const url = `http://localhost:${port}`
  return { bind: `${hostPart(host)}:${port} (every address of this machine)`, url, urls: [url, ...own] }
}
