/**
 * The body of a custom intent rule (`POST reports`, `PATCH reports/:id`) as JSON Schema
 * (TypeBox): the service checks bodies with it and the OpenAPI document publishes the same
 * object. What depends on the rule's table (that `apiEndpoint` names one, the column, the
 * filters of the checks) is checked by code after it (compile.ts).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { bodyValidator } from '../../shared/schema/index.js'
import { BUILTIN_GROUPS } from './builtin.js'
import { NO_MATCH, SEVERITIES } from './types.js'

const GROUP_IDS = BUILTIN_GROUPS.map((g) => g.id)
const COLORS = [NO_MATCH, 0, 10, 20, 30] as const
const KEYS_TEXT = `[${[...SEVERITIES].reverse().join(', ')}]`

const GroupId = Type.Union(GROUP_IDS.map((id) => Type.Literal(id)))
/** One optional key per severity, highest first (types.ts SEVERITIES). */
const bySeverity = <T extends TSchema>(value: () => T) => ({ '30': Type.Optional(value()), '20': Type.Optional(value()), '10': Type.Optional(value()), '0': Type.Optional(value()) })
const description = () => Type.String({ maxLength: 2000, 'x-message': 'must be a string of at most 2000 characters' })
const ignored = (what: string) => Type.Optional(Type.Unknown({ description: `Ignored: ${what} (a rule read from GET reports may be sent back as it is).` }))

function rule(required: boolean) {
  const need = <T extends TSchema>(schema: T) => (required ? schema : Type.Optional(schema))
  return Type.Object(
    {
      name: need(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Name of the rule.', 'x-message': 'must be a non-empty string of at most 200 characters' })),
      apiEndpoint: need(Type.String({ description: 'The table the rule colours, e.g. "/v1/tables/inventory/devices".', 'x-messages': { type: 'must be a string such as "/v1/tables/inventory/devices"' } })),
      column: need(Type.String({ description: 'The column whose values the rule colours.' })),
      defaultColor: Type.Optional(
        Type.Union([...COLORS.map((c) => Type.Literal(c)), Type.Null()], { description: 'Severity of values no check matches; null for none (-1).', 'x-message': `must be one of [${COLORS.join(', ')}] or null` }),
      ),
      checks: need(
        Type.Object(
          bySeverity(() => Type.Object({}, { description: 'A filter over the rule\'s table, as in table requests.' })),
          {
            minProperties: 1,
            additionalProperties: false,
            description: 'Per severity (30 red, 20 amber, 10 blue, 0 green) the filter of the values it colours.',
            'x-message': `must be an object with at least one of the keys ${KEYS_TEXT}`,
            'x-additional-message': `is not allowed: keys are ${KEYS_TEXT}`,
          },
        ),
      ),
      groups: Type.Optional(
        Type.Array(Type.Union([GroupId, Type.Object({ id: GroupId })], { 'x-message': `must be one of [${GROUP_IDS.join(', ')}]` }), {
          maxItems: 20,
          description: 'Groups of the rule (ids, or objects with an id); ["custom"] by default.',
          'x-message': 'must be an array of group ids',
        }),
      ),
      descriptions: Type.Optional(
        Type.Union([
          Type.Object(
            {
              general: Type.Optional(description()),
              checks: Type.Optional(Type.Object(bySeverity(description), { additionalProperties: false, 'x-messages': { type: 'must be an object' } })),
            },
            { 'x-messages': { type: 'must be an object' } },
          ),
          Type.Null(),
        ], { description: 'What the rule and each check mean.' }),
      ),
      webEndpoint: ignored('the web page of the table'),
      id: ignored('the id'),
      custom: ignored('whether it is custom'),
      result: ignored('its result'),
    },
    { additionalProperties: false },
  )
}

/** `POST reports`. */
export const RuleCreate = rule(true)
/** `PATCH reports/:id`: absent keys keep their value. */
export const RulePatch = rule(false)
export type RuleBody = Static<typeof RulePatch>

// the first problem, as the service always answered
export const ruleCreate = bodyValidator(RuleCreate)
export const rulePatch = bodyValidator(RulePatch)
