/**
 * The sysObjectID of every device kind the simulator deploys says of the device what the
 * simulator claims for it, as discovery reads it (products.ts, from the vendors' MIBs): the
 * vendor (from the product identifier, else the enterprise number), the OS family where the
 * identifier names one, and the model where it names one. An identifier may name the chassis
 * without the orderable part's suffix (`ISR4451-X` of `ISR4451-X/K9`) or the series of a model
 * (`EX4300` of `EX4300-48P`); a stack's identifier names no model. The platform is left out:
 * the simulator names the hardware series (`c9300`), discovery the software image family
 * (`cat9k`), as sysDescr gives it.
 */
import t from 'tap'
import { productOf } from '../../../src/inventory/discovery/network/products.js'
import { ENTERPRISES, enterpriseOf } from '../../../src/inventory/discovery/network/vendor.js'
import { PLATFORMS, type Platform } from '../../../src/inventory/simulator/platforms.js'

const kinds: Platform[] = [...new Set(Object.values(PLATFORMS).flatMap((list) => list.map(([p]) => p)))]

/** Whether a model the identifier names is the simulated one: the same, or its chassis or series. */
const sameModel = (named: string, simulated: string) => simulated === named || simulated.startsWith(`${named}/`) || simulated.startsWith(`${named}-`)

t.test('every simulated device kind has a sysObjectID of its own', async (t) => {
  t.ok(kinds.length >= 15, `${kinds.length} kinds`)
  const ids = kinds.map((p) => p.objectId)
  t.equal(new Set(ids).size, ids.length, 'no two kinds share an identifier')
  for (const p of kinds) t.match(p.objectId, /^1\.3\.6\.1\.4\.1\.\d+(\.\d+)+$/, `${p.model}: an identifier under enterprises`)
})

t.test('each sysObjectID names the vendor, family and model the simulator claims', async (t) => {
  for (const p of kinds) {
    const product = productOf(p.objectId)
    const enterprise = enterpriseOf(p.objectId)
    const vendor = product?.vendor ?? (enterprise === null ? null : ENTERPRISES[enterprise] ?? null)
    t.equal(vendor, p.vendor, `${p.model} (${p.objectId}): vendor`)
    if (product?.family) t.equal(product.family, p.family, `${p.model} (${p.objectId}): family`)
    if (product?.model) t.ok(sameModel(product.model, p.model), `${p.model} (${p.objectId}): the identifier names ${product.model}`)
  }
})

t.test('the big three\'s identifiers are each in the product table', async (t) => {
  // a single product names its model, a stack (access switches are stacks) its platform: an identifier the table does not hold says the vendor only
  for (const p of kinds) {
    if (!['cisco', 'juniper', 'arista'].includes(p.vendor) || p.family === 'ap-cos') continue
    const product = productOf(p.objectId)
    t.ok(product?.model ?? product?.platform, `${p.model} (${p.objectId}) is in the product table`)
  }
})
