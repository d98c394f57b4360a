/**
 * A UDP socket on an address's SNMP port (161) that keeps every datagram it receives: what
 * netinv sent there, community strings and SNMPv3 user names in clear included. Other tests on
 * this machine may send to the same loopback address, so a check looks for a text of its own
 * (a random community), never for "any packet".
 */
import { createSocket } from 'node:dgram'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface SnmpListener {
  address: string
  /** Datagrams received that hold `text`. */
  holding(text: string): Buffer[]
}

export const SNMP_PORT = 161

export async function snmpListener(t: Teardown, address: string): Promise<SnmpListener> {
  const socket = createSocket('udp4')
  const packets: Buffer[] = []
  socket.on('message', (msg) => packets.push(msg))
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(SNMP_PORT, address, () => {
      socket.off('error', reject)
      resolve()
    })
  })
  t.teardown(() => new Promise<void>((resolve) => socket.close(() => resolve())))
  return { address, holding: (text) => packets.filter((p) => p.includes(Buffer.from(text))) }
}

/** A loopback address of its own for a test (127.x.y.z, away from 127.0.0.x). */
export function loopbackAddress(): string {
  const byte = () => 1 + Math.floor(Math.random() * 250)
  return `127.${byte()}.${byte()}.${byte()}`
}
