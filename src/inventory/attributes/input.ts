/**
 * Request bodies of `attributes/global` and `attributes/local`, in the shapes the 5.x/6.x SDK
 * sends: one attribute `{sn, name, value}` (POST), a list `{attributes: [...], snapshot?}` (PUT),
 * and a delete `{attributes: {sn: [...]} | {id: [...]}, snapshot?}`. The schemas are what the
 * routes check and what the OpenAPI document publishes; a pair set twice in one list is checked
 * after them. Every problem is a 422.
 */
import { Type, type Static, type TProperties } from '@sinclair/typebox'
import { bodyValidator } from '../../shared/schema/index.js'

/** Attribute names as the SDK checks them (a letter first, no trailing underscore). */
export const ATTRIBUTE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*[a-zA-Z0-9]+$/
export const MAX_ATTRIBUTES = 10000
const MAX_NAME = 64
const MAX_TEXT = 1000

const nonEmpty = (description: string, message: string) => Type.String({ minLength: 1, maxLength: MAX_TEXT, description, 'x-message': message })

/** One attribute of a device; `id` is tolerated, as clients send back rows they listed. */
export const Attribute = Type.Object(
  {
    sn: nonEmpty('Serial number of the device.', 'must be a device serial number (a non-empty string)'),
    name: Type.String({ maxLength: MAX_NAME, pattern: ATTRIBUTE_NAME.source, description: 'Name of the attribute.', 'x-message': `must match ${ATTRIBUTE_NAME.source} (at most ${MAX_NAME} characters)` }),
    value: nonEmpty('Value of the attribute.', `must be a non-empty string of at most ${MAX_TEXT} characters`),
    id: Type.Optional(Type.Unknown({ description: 'Ignored: the id of a listed row sent back.' })),
  },
  { additionalProperties: false, 'x-additional-message': 'is not allowed; allowed keys are [sn, name, value]', 'x-messages': { type: 'must be an object {sn, name, value}' } },
)
export type AttributeInput = Pick<Static<typeof Attribute>, 'sn' | 'name' | 'value'>

/** Which rows a delete names. */
export type AttributeSelector = { by: 'sn' | 'id'; values: string[] }

/** The body of a scope: `snapshot` (required) for local attributes, nothing for global ones. */
function scoped<P extends TProperties>(properties: P, local: boolean) {
  const snapshot = Type.String({ minLength: 1, description: 'Id of the snapshot whose attributes change.', 'x-message': 'is required: the id of the snapshot whose attributes change' })
  const keys = local ? [...Object.keys(properties), 'snapshot'] : Object.keys(properties)
  return Type.Object({ ...properties, ...(local ? { snapshot } : {}) }, { additionalProperties: false, 'x-additional-message': `is not allowed; allowed keys are [${keys.join(', ')}]` })
}

const list = (local: boolean) =>
  scoped(
    {
      attributes: Type.Array(Attribute, {
        maxItems: MAX_ATTRIBUTES,
        description: 'Attributes to add or update, each (sn, name) once.',
        'x-message': `must be an array of at most ${MAX_ATTRIBUTES} objects {sn, name, value}`,
      }),
    },
    local,
  )

const selector = (by: 'sn' | 'id', description: string) =>
  Type.Object(
    {
      [by]: Type.Array(Type.String({ minLength: 1, maxLength: MAX_TEXT }), { minItems: 1, maxItems: MAX_ATTRIBUTES, description, 'x-message': `must be a non-empty array of at most ${MAX_ATTRIBUTES} strings` }),
    },
    { additionalProperties: false },
  )

const removal = (local: boolean) =>
  scoped(
    {
      attributes: Type.Union([selector('sn', 'Serial numbers: every attribute of these devices goes.'), selector('id', 'Ids of attribute rows.')], {
        'x-message': 'must be {"sn": [serial, ...]} or {"id": [attribute id, ...]}',
      }),
    },
    local,
  )

export const GlobalAttributeList = list(false)
export const LocalAttributeList = list(true)
export const GlobalAttributeRemoval = removal(false)
export const LocalAttributeRemoval = removal(true)

const one = bodyValidator(Attribute, { all: true })
const lists = { global: bodyValidator(GlobalAttributeList, { all: true }), local: bodyValidator(LocalAttributeList, { all: true }) }
const removals = { global: bodyValidator(GlobalAttributeRemoval, { all: true }), local: bodyValidator(LocalAttributeRemoval, { all: true }) }

/** POST attributes/global: one attribute. */
export function parseOne(body: unknown): AttributeInput {
  const { sn, name, value } = one.parse(body)
  return { sn, name, value }
}

/** PUT: a list to add or update; `snapshot` for local attributes. */
export function parseList(body: unknown, local: boolean): { snapshot: string | undefined; attributes: AttributeInput[] } {
  const validator = local ? lists.local : lists.global
  const issues = validator.problems(body)
  const given = body as { attributes?: unknown; snapshot?: string }
  const attributes: AttributeInput[] = []
  if (Array.isArray(given.attributes)) {
    const seen = new Set<string>()
    given.attributes.forEach((raw: unknown, i) => {
      if (one.problems(raw).length > 0) return
      const { sn, name, value } = raw as AttributeInput
      const key = JSON.stringify([sn, name])
      if (seen.has(key)) issues.push({ message: `"attributes[${i}]" sets ${name} of ${sn} a second time`, path: `attributes[${i}]` })
      seen.add(key)
      attributes.push({ sn, name, value })
    })
  }
  validator.assert(issues)
  return { snapshot: local ? given.snapshot : undefined, attributes }
}

/** DELETE: rows by device serial or by attribute id; `snapshot` for local attributes. */
export function parseDelete(body: unknown, local: boolean): { snapshot: string | undefined; selector: AttributeSelector } {
  const given = (local ? removals.local : removals.global).parse(body) as { attributes: { sn?: string[]; id?: string[] }; snapshot?: string }
  const selector: AttributeSelector = given.attributes.sn ? { by: 'sn', values: given.attributes.sn } : { by: 'id', values: given.attributes.id ?? [] }
  return { snapshot: local ? given.snapshot : undefined, selector }
}
