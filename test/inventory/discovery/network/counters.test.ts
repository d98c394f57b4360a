/**
 * Traffic rates from two readings of IF-MIB's counters (mibs/counters.ts), read from written
 * varbinds: the interval is the agent's sysUpTime where it has one, a counter that went back gives
 * no rate, and an interface missing from either reading has none.
 */
import t from 'tap'
import { Recorded } from './varbinds.js'
import { COUNTER_COLUMNS, SYS_UPTIME, counterRates, readCounters } from '../../../../src/inventory/discovery/network/mibs/counters.js'

const TICKS = 67
const COUNTER32 = 65
const COUNTER64 = 70

type Values = Partial<Record<keyof typeof COUNTER_COLUMNS, number>>

function agent(uptime: number | null, interfaces: Record<number, Values>): Recorded {
  const vbs: Array<[string, number, unknown]> = uptime === null ? [] : [[SYS_UPTIME, TICKS, uptime]]
  for (const [ifIndex, values] of Object.entries(interfaces)) {
    for (const [name, value] of Object.entries(values)) {
      const oid = COUNTER_COLUMNS[name as keyof typeof COUNTER_COLUMNS]
      vbs.push([`${oid}.${ifIndex}`, oid.startsWith('1.3.6.1.2.1.31.') ? COUNTER64 : COUNTER32, value])
    }
  }
  return new Recorded(vbs)
}

const all = (n: number): Values => Object.fromEntries(Object.keys(COUNTER_COLUMNS).map((k) => [k, n]))

t.test('rates per second over the agent\'s own interval', async (t) => {
  const first = await readCounters(agent(100_000, { 1: all(1000), 2: all(5), 3: all(0) }))
  // 12.5 s later by sysUpTime, whatever this machine's clock says
  const second = await readCounters(
    agent(101_250, {
      1: { ...all(1000), inOctets: 1000 + 12_500_000, outOctets: 1000 + 25_000, inUcast: 1000 + 1000, inMulticast: 1000 + 250, inBroadcast: 1000, inErrors: 1000 + 25 },
      2: { ...all(5), outDiscards: 4 },
      4: all(9),
    }),
  )
  const rates = counterRates(first, second)
  t.same(rates.get(1), { inBytes: 1_000_000, outBytes: 2000, inPkts: 100, outPkts: 0, inErrPkts: 2, outErrPkts: 0, inDropPkts: 0, outDropPkts: 0 }, 'deltas over 12.5 s; packets of the three kinds together')
  t.equal(rates.get(2)!.outDropPkts, null, 'a counter that went back (a restart, a 32-bit wrap) gives no rate')
  t.equal(rates.get(2)!.inBytes, 0, 'the others still do')
  t.notOk(rates.has(3), 'an interface gone by the second reading has none')
  t.notOk(rates.has(4), 'nor one that appeared')
})

t.test('without sysUpTime, or when it went back, the interval is this machine\'s', async (t) => {
  const first = await readCounters(agent(null, { 1: all(0) }))
  const second = await readCounters(agent(null, { 1: all(1_000_000_000) }))
  const elapsed = (second.at - first.at) / 1000
  t.ok(elapsed > 0)
  t.equal(counterRates(first, second).get(1)!.inBytes, Math.round(1_000_000_000 / elapsed))
  const restarted = await readCounters(agent(10, { 1: all(2_000_000_000) }))
  const before = { ...second, uptime: 500_000 }
  t.equal(counterRates(before, restarted).get(1)!.inBytes, Math.round(1_000_000_000 / ((restarted.at - second.at) / 1000)), 'sysUpTime went back: the clock here')
  t.same(counterRates(second, { ...second }).size, 0, 'no time between the readings: no rates')
})
