/**
 * The command line of a recorded Cisco IOS device over SSH, for the devices whose SNMP side
 * snmpsim replays (agent.ts): a real SSH server (ssh2's Server) on the device's own address that
 * logs a user in with a password, gives a terminal with the device's `hostname#` prompt, echoes
 * what is typed as a terminal does, and answers the commands an operator types as IOS prints
 * them: `terminal length 0`, `show running-config` ("Building configuration...", "Current
 * configuration : N bytes" before the text), `show startup-config` ("Using N out of 524288
 * bytes" before the text, "startup-config is not present" when nothing was saved), and
 * "% Invalid input detected at '^' marker." for anything else. The running and the startup
 * configuration are the test's to change (a configuration change, `copy running-config
 * startup-config`).
 */
import { generateKeyPairSync } from 'node:crypto'
import { createServer, type Server as NetServer } from 'node:net'
import ssh2 from 'ssh2'
import type { Test } from 'tap'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface RecordedCli {
  hostname: string
  /** Lines of the running configuration, from "version" to "end". */
  running: string
  /** Lines of the startup configuration, null when none was saved. */
  startup: string | null
}

export interface CliServers {
  port: number
  user: string
  password: string
  /** Each device's state, by host name: change `running` or `startup` and the next session shows it. */
  devices: Map<string, RecordedCli>
}

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n')

function answer(device: RecordedCli, command: string): string {
  switch (command.trim().replace(/\s+/g, ' ')) {
    case 'terminal length 0':
      return ''
    case 'show running-config':
      return crlf(`Building configuration...\n\nCurrent configuration : ${Buffer.byteLength(device.running)} bytes\n${device.running}\n`)
    case 'show startup-config':
      return device.startup === null ? 'startup-config is not present\r\n' : crlf(`Using ${Buffer.byteLength(device.startup)} out of 524288 bytes\n${device.startup}\n`)
    case '':
      return ''
    default:
      return `${' '.repeat(device.hostname.length + 1)}^\r\n% Invalid input detected at '^' marker.\r\n\r\n`
  }
}

/** A free TCP port on every one of `addresses`. */
async function freePort(addresses: readonly string[]): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const probe: NetServer = createServer()
    const port = await new Promise<number>((resolve, reject) => {
      probe.once('error', reject)
      probe.listen(0, addresses[0], () => resolve((probe.address() as { port: number }).port))
    })
    await new Promise((r) => probe.close(r))
    const free = await Promise.all(
      addresses.map(
        (a) =>
          new Promise<boolean>((resolve) => {
            const s = createServer()
            s.once('error', () => resolve(false))
            s.listen(port, a, () => s.close(() => resolve(true)))
          }),
      ),
    )
    if (free.every(Boolean)) return port
  }
  throw new Error('no free port on every device address')
}

/** Starts one SSH server per device on its address (`addresses` by host name), all on one port. */
export async function recordedClis(t: Teardown, devices: readonly RecordedCli[], addresses: ReadonlyMap<string, string>): Promise<CliServers> {
  const user = 'netops'
  const password = 'rec-cli-Pa55word'
  const port = await freePort(devices.map((d) => addresses.get(d.hostname)!))
  const state = new Map(devices.map((d) => [d.hostname, { ...d }]))
  for (const device of state.values()) {
    // an ECDSA key in PEM: ssh2's own ed25519 generator now and then writes a key its parser refuses
    const hostKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey
    const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
      client.on('authentication', (ctx) => {
        if (ctx.method === 'password' && ctx.username === user && ctx.password === password) return ctx.accept()
        ctx.reject(['password'])
      })
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept()
          session.on('pty', (ok) => ok?.())
          session.on('shell', (ok) => {
            const channel = ok()
            const prompt = `${device.hostname}#`
            let line = ''
            channel.write(`\r\n${prompt}`)
            channel.on('data', (chunk: Buffer) => {
              for (const ch of chunk.toString('utf8')) {
                if (ch !== '\r' && ch !== '\n') {
                  line += ch
                  channel.write(ch)
                  continue
                }
                const command = line
                line = ''
                channel.write('\r\n')
                if (command.trim() === 'exit') {
                  channel.exit(0)
                  channel.end()
                  return
                }
                channel.write(`${answer(device, command)}${prompt}`)
              }
            })
          })
        })
      })
      client.on('error', () => {})
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, addresses.get(device.hostname)!, () => resolve())
    })
    t.teardown(() => new Promise((r) => server.close(() => r(undefined))))
  }
  return { port, user, password, devices: state }
}

/** The calls that make a netinv discover recorded agents and read configurations from their CLIs: their SNMP community, their /24 let in, the CLIs' SSH login. */
export async function useRecorded(
  t: Test,
  client: { call(method: string, path: string, body?: unknown): Promise<{ status: number }> },
  agents: { community: string; address: ReadonlyMap<string, string> },
  clis: CliServers,
): Promise<void> {
  const first = [...agents.address.values()][0]!
  const network = `${first.split('.').slice(0, 3).join('.')}.0/24`
  t.equal((await client.call('POST', 'settings/snmp', { name: 'recorded', version: '2c', community: agents.community })).status, 201)
  t.equal((await client.call('PATCH', 'settings', { allowedSpecialNetworks: [network], limits: { timeoutMs: 5000, retries: 2, sshTimeoutMs: 8000 } })).status, 200)
  t.equal((await client.call('POST', 'settings/ssh', { name: 'cli', user: clis.user, password: clis.password, port: clis.port })).status, 201)
}
