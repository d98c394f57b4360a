/**
 * The fields of a snapshot that users set, as JSON Schema pieces (TypeBox): the API's bodies
 * (`POST snapshots`, `PATCH snapshots/:id`, `PATCH snapshots/:id/settings`, routes/schemas.ts)
 * and the header of an uploaded file (SnapshotFileHeader) are checked with the same pieces, so
 * an upload can set nothing the API would refuse: a name of 15 MiB was stored from a file and
 * then weighed down every listing of the snapshots.
 */
import { Type } from '@sinclair/typebox'
import { SIMULATOR_PROPERTIES } from '../settings/schemas.js'
import { DISABLED_ACTIONS_KEY, POST_DISCOVERY_ACTIONS } from './post-discovery.js'

/** Bounds of a snapshot's name and note. */
export const TEXT_LIMITS = { name: 255, note: 4000 } as const

/** A snapshot's name or note: a string within its bound, or null. */
export const snapshotText = (field: keyof typeof TEXT_LIMITS, description: string) =>
  Type.Union([Type.String({ maxLength: TEXT_LIMITS[field] }), Type.Null()], { description, 'x-message': `must be a string of at most ${TEXT_LIMITS[field]} characters, or null` })

/** The settings of a snapshot a user may change (`PATCH snapshots/:id/settings`). */
export const SNAPSHOT_SETTINGS_PROPERTIES = {
  [DISABLED_ACTIONS_KEY]: Type.Optional(
    Type.Array(Type.Union(POST_DISCOVERY_ACTIONS.map((a) => Type.Literal(a))), {
      description: 'Post-discovery actions not to run for this snapshot.',
      'x-message': `must be an array of [${POST_DISCOVERY_ACTIONS.join(', ')}]`,
    }),
  ),
  ...SIMULATOR_PROPERTIES,
}

/**
 * What an uploaded file's header may carry in the fields no API sets (a discovery writes them):
 * bounds generous for any discovery, documented in docs/snapshot-format.md.
 */
export const HEADER_LIMITS = {
  /** A user name (the gateway's user names have at most 64 characters). */
  username: 64,
  /** A product version, a site's name, uid and id, an error type. */
  word: 255,
  /** Sites of one snapshot, and kinds of discovery error. */
  items: 10_000,
} as const

const word = (description: string) => Type.String({ maxLength: HEADER_LIMITS.word, description })
const count = (description: string) => Type.Integer({ description })

/** The `snapshot` object of a file's header line (docs/snapshot-format.md). */
export const SnapshotFileMeta = Type.Object({
  name: snapshotText('name', 'Name of the snapshot.'),
  note: snapshotText('note', 'Note on the snapshot.'),
  // Besides what a user may change, the settings record what the discovery ran with.
  settings: Type.Object(SNAPSHOT_SETTINGS_PROPERTIES, { 'x-message': 'must be an object' }),
  sites: Type.Array(Type.Object({ siteName: word('Site name.'), uid: word('Site uid.'), id: word('Site id.') }), { maxItems: HEADER_LIMITS.items }),
  errors: Type.Array(Type.Object({ errorType: word('Kind of discovery error.'), count: count('How many.') }), { maxItems: HEADER_LIMITS.items }),
  counts: Type.Record(Type.String(), Type.Integer(), { 'x-message': 'must map table paths to integers' }),
  totalDevCount: count('Devices.'),
  licensedDevCount: count('Licensed devices.'),
  deviceAddedCount: count('Devices added since the previous snapshot.'),
  deviceRemovedCount: count('Devices removed since the previous snapshot.'),
  interfaceCount: count('Interfaces.'),
  tsStart: count('Start of the discovery, ms since the epoch.'),
  tsEnd: Type.Union([Type.Integer(), Type.Null()], { 'x-message': 'must be an integer or null' }),
  version: word('Product version that wrote the snapshot.'),
  initialVersion: word('Product version that created the snapshot.'),
  creatorUsername: Type.Union([Type.String({ maxLength: HEADER_LIMITS.username }), Type.Null()], { 'x-message': `must be a string of at most ${HEADER_LIMITS.username} characters, or null` }),
})

/** The header line less its `format` and `version`, which the reader checks first. */
export const SnapshotFileHeader = Type.Object({ snapshot: SnapshotFileMeta })
