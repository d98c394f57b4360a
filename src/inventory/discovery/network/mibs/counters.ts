/**
 * Traffic rates from two readings of the IF-MIB counters: octets and packets (ifXTable's 64-bit
 * ifHC* counters), errors and discards (ifTable), each reading with the agent's sysUpTime, so
 * that the interval is the device's own and not the time the requests took to travel.
 */
import type { MibReader } from '../snmp/client.js'
import { int } from '../snmp/values.js'
import type { InterfaceRates } from '../model.js'

export const SYS_UPTIME = '1.3.6.1.2.1.1.3.0'
export const COUNTER_COLUMNS = {
  inOctets: '1.3.6.1.2.1.31.1.1.1.6',
  inUcast: '1.3.6.1.2.1.31.1.1.1.7',
  inMulticast: '1.3.6.1.2.1.31.1.1.1.8',
  inBroadcast: '1.3.6.1.2.1.31.1.1.1.9',
  outOctets: '1.3.6.1.2.1.31.1.1.1.10',
  outUcast: '1.3.6.1.2.1.31.1.1.1.11',
  outMulticast: '1.3.6.1.2.1.31.1.1.1.12',
  outBroadcast: '1.3.6.1.2.1.31.1.1.1.13',
  inDiscards: '1.3.6.1.2.1.2.2.1.13',
  inErrors: '1.3.6.1.2.1.2.2.1.14',
  outDiscards: '1.3.6.1.2.1.2.2.1.19',
  outErrors: '1.3.6.1.2.1.2.2.1.20',
} as const
type Counter = keyof typeof COUNTER_COLUMNS

export interface CounterReading {
  /** sysUpTime in hundredths of a second, null when the agent did not say. */
  uptime: number | null
  /** When the reading was taken on this machine's monotonic clock, in milliseconds. */
  at: number
  byIndex: Map<number, Partial<Record<Counter, number | null>>>
}

export async function readCounters(client: MibReader): Promise<CounterReading> {
  const [own, rows] = await Promise.all([client.get([SYS_UPTIME]), client.table(COUNTER_COLUMNS)])
  const at = performance.now()
  const byIndex = new Map<number, Partial<Record<Counter, number | null>>>()
  for (const { index, cells } of rows) {
    if (index.length !== 1) continue
    const values: Partial<Record<Counter, number | null>> = {}
    for (const name of Object.keys(COUNTER_COLUMNS) as Counter[]) values[name] = int(cells[name])
    byIndex.set(index[0]!, values)
  }
  return { uptime: int(own.get(SYS_UPTIME)), at, byIndex }
}

/**
 * Seconds between two readings: by the agent's sysUpTime when both have it and it went forward
 * (it wraps after 497 days, and restarts with the agent), else by this machine's clock.
 */
export function interval(first: CounterReading, second: CounterReading): number {
  if (first.uptime !== null && second.uptime !== null && second.uptime > first.uptime) return (second.uptime - first.uptime) / 100
  return (second.at - first.at) / 1000
}

/**
 * The rates of every interface both readings have. A counter that went back between them (the
 * interface or the device restarted, or a 32-bit counter wrapped) or that one reading lacks gives
 * null, never a guess; packets are unicast, multicast and broadcast together.
 */
export function counterRates(first: CounterReading, second: CounterReading): Map<number, InterfaceRates> {
  const seconds = interval(first, second)
  const rates = new Map<number, InterfaceRates>()
  if (!(seconds > 0)) return rates
  for (const [ifIndex, b] of second.byIndex) {
    const a = first.byIndex.get(ifIndex)
    if (!a) continue
    const delta = (...names: Counter[]): number | null => {
      let sum = 0
      for (const n of names) {
        const [x, y] = [a[n], b[n]]
        if (x === null || x === undefined || y === null || y === undefined || y < x) return null
        sum += y - x
      }
      return Math.round(sum / seconds)
    }
    rates.set(ifIndex, {
      inBytes: delta('inOctets'),
      outBytes: delta('outOctets'),
      inPkts: delta('inUcast', 'inMulticast', 'inBroadcast'),
      outPkts: delta('outUcast', 'outMulticast', 'outBroadcast'),
      inErrPkts: delta('inErrors'),
      outErrPkts: delta('outErrors'),
      inDropPkts: delta('inDiscards'),
      outDropPkts: delta('outDiscards'),
    })
  }
  return rates
}
