/**
 * Bodies of `snapshots/{id}/devices`: POST names the devices to rediscover by serial
 * (`{"snList": [...]}`) or by management address (`{"ipList": [...]}`); DELETE is a bare array
 * of serials. The schemas are what the routes check and what the OpenAPI document publishes;
 * "exactly one of the two lists" is checked after them. Every problem is a 422.
 */
import { Type, type Static } from '@sinclair/typebox'
import { isIpv4 } from '../../shared/ipv4.js'
import { bodyValidator, defineFormat } from '../../shared/schema/index.js'

/** Devices one request may name (their rows are gathered in memory before the swap). */
export const MAX_DEVICES_PER_REQUEST = 1000
const MAX_SN = 255

const IPV4 = defineFormat('ipv4-address', (v) => (typeof v === 'string' && isIpv4(v) ? undefined : 'must be an IPv4 address'))

const serialList = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: MAX_SN, 'x-message': 'must be a device serial number (a non-empty string)' }), {
    minItems: 1,
    maxItems: MAX_DEVICES_PER_REQUEST,
    description,
    'x-message': `must be a non-empty array of at most ${MAX_DEVICES_PER_REQUEST} device serial numbers`,
  })

/** POST: the devices to rediscover, by serial or by management address (one of the two). */
export const DeviceSelectionBody = Type.Object(
  {
    snList: Type.Optional(serialList('Serial numbers of devices of the snapshot to collect again (a discoveryRefresh job).')),
    ipList: Type.Optional(
      Type.Array(Type.String({ format: IPV4 }), {
        minItems: 1,
        maxItems: MAX_DEVICES_PER_REQUEST,
        description: 'Management addresses to collect (a discoveryAdd job); on a network snapshot a new address may add a device.',
        'x-message': `must be a non-empty array of at most ${MAX_DEVICES_PER_REQUEST} IPv4 addresses`,
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of snList and ipList.', 'x-additional-message': 'is not allowed; allowed keys are [snList, ipList]' },
)

/** DELETE: the serial numbers of the devices to remove. */
export const SerialListBody = serialList('Serial numbers of the devices whose rows leave the snapshot.')

export type DeviceSelection = { by: 'sn'; values: string[] } | { by: 'ip'; values: string[] }

const selectionBody = bodyValidator(DeviceSelectionBody, { all: true })
const serialsBody = bodyValidator(SerialListBody, { all: true })

/** POST: `{"snList": [...]}` or `{"ipList": [...]}` (one of them). */
export function parseSelection(body: unknown): DeviceSelection {
  const issues = selectionBody.problems(body)
  const given = body as Static<typeof DeviceSelectionBody>
  if ((given.snList === undefined) === (given.ipList === undefined)) {
    issues.push({ message: 'the body must hold exactly one of "snList" (serial numbers) or "ipList" (management addresses)' })
  }
  selectionBody.assert(issues)
  // as sent, repeats included, so that a problem names its place in the body
  return given.snList !== undefined ? { by: 'sn', values: given.snList } : { by: 'ip', values: given.ipList ?? [] }
}

/** DELETE: a bare array of serials, as sent. */
export function parseSerials(body: unknown): string[] {
  return serialsBody.parse(body)
}
