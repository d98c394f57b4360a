/**
 * The request bodies of inventory endpoints that are checked against a JSON Schema (TypeBox):
 * the route checks the body with it and the OpenAPI document publishes the same object. Table
 * requests are described from the catalog instead (src/inventory/openapi/tables.ts). The
 * settings' schemas are in settings/schemas.ts, the report rules' in reports/schema.ts.
 */
import { Type } from '@sinclair/typebox'
import type { RequestBodies } from '../../shared/schema/index.js'
import { Attribute, GlobalAttributeList, GlobalAttributeRemoval, LocalAttributeList, LocalAttributeRemoval } from '../attributes/input.js'
import { GraphRequest } from '../path-lookup/index.js'
import { RuleCreate, RulePatch } from '../reports/schema.js'
import { ConfigBackupRequest, CredentialCreate, CredentialPatch, SeedList, SettingsPatch, SIMULATOR_PROPERTIES, SshCredentialCreate, SshCredentialPatch } from '../settings/schemas.js'
import { DeviceSelectionBody, SerialListBody } from '../snapshots/device-input.js'
import { LoadRequest } from '../snapshots/loading.js'
import { SNAPSHOT_SETTINGS_PROPERTIES, snapshotText } from '../snapshots/fields.js'

export const SnapshotPatch = Type.Object(
  {
    name: Type.Optional(snapshotText('name', 'Name of the snapshot; null removes it.')),
    note: Type.Optional(snapshotText('note', 'Note on the snapshot; null removes it.')),
  },
  { additionalProperties: false, 'x-additional-message': 'is not allowed; allowed keys are [name, note]' },
)

/** `POST snapshots`: a discovery of the network or of the simulator (source-dependent keys are checked after the schema). */
export const DiscoveryStart = Type.Object(
  {
    snapshotName: Type.Optional(snapshotText('name', 'Name of the new snapshot.')),
    snapshotNote: Type.Optional(snapshotText('note', 'Note on the new snapshot.')),
    source: Type.Optional(
      Type.Union([Type.Literal('network'), Type.Literal('simulator')], {
        description: 'What to discover: the network (the default once seeds are stored, unless the body names profile, seed or sites) or the simulator.',
      }),
    ),
    ...SIMULATOR_PROPERTIES,
    seeds: Type.Optional({ ...SeedList, description: 'Seeds of this run of a network discovery, instead of the stored ones.' }),
  },
  {
    additionalProperties: false,
    description: 'A network discovery takes seeds; a simulated one profile, seed and sites (each defaulting to the stored settings).',
    'x-additional-message': 'is not allowed; allowed keys are [snapshotName, snapshotNote, source, profile, seed, sites, seeds]',
  },
)

/** `PATCH snapshots/:id/settings`: the post-discovery actions to skip, and the simulator's settings of a simulated snapshot. */
export const SnapshotSettingsPatch = Type.Object(SNAPSHOT_SETTINGS_PROPERTIES, {
  additionalProperties: false,
  'x-additional-message': `is not allowed; allowed keys are [${Object.keys(SNAPSHOT_SETTINGS_PROPERTIES).join(', ')}]`,
})

/** By `METHOD path` of the manifest. */
export const INVENTORY_BODIES: RequestBodies = {
  'POST snapshots': { schema: DiscoveryStart },
  'PATCH snapshots/:id': { schema: SnapshotPatch },
  'PATCH snapshots/:id/settings': { schema: SnapshotSettingsPatch },
  'PATCH settings': { schema: SettingsPatch },
  'PUT settings/seed': { schema: SeedList },
  'POST settings/snmp': { schema: CredentialCreate },
  'PATCH settings/snmp/:id': { schema: CredentialPatch },
  'POST settings/ssh': { schema: SshCredentialCreate },
  'PATCH settings/ssh/:id': { schema: SshCredentialPatch },
  'POST discovery/trigger-config-backup': { schema: ConfigBackupRequest },
  'POST reports': { schema: RuleCreate },
  'POST graphs': { schema: GraphRequest },
  'POST graphs/svg': { schema: GraphRequest },
  'POST graphs/png': { schema: GraphRequest },
  'PATCH reports/:id': { schema: RulePatch },
  'POST snapshots/load': { schema: LoadRequest },
  'POST snapshots/unload': { schema: LoadRequest },
  'POST snapshots/:id/devices': { schema: DeviceSelectionBody },
  'DELETE snapshots/:id/devices': { schema: SerialListBody },
  'POST attributes/global': { schema: Attribute },
  'PUT attributes/global': { schema: GlobalAttributeList },
  'PUT attributes/local': { schema: LocalAttributeList },
  'DELETE attributes/global': { schema: GlobalAttributeRemoval },
  'DELETE attributes/local': { schema: LocalAttributeRemoval },
  // Not JSON: the file is read line by line, each line checked as it arrives (snapshots/reader.ts).
  'POST snapshots/upload': {
    contentType: 'application/x-ndjson',
    schema: Type.String({ description: 'A netinv-snapshot file: one JSON object per line, a header line first (docs/snapshot-format.md).' }),
    alsoAccepts: {
      'multipart/form-data': Type.Object(
        { file: Type.String({ contentMediaType: 'application/octet-stream', description: 'The netinv-snapshot file (the first part with a filename, or the field "file").' }) },
        { required: ['file'], description: 'The file as a form part, as the Python SDK\'s snapshot_upload sends it.' },
      ),
    },
  },
}
