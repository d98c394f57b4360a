/**
 * SNMP credentials in the database (`inventory.snmp_credentials`), in the order they are
 * tried; the secrets are sealed with the credential key, bound to the credential id. Also
 * which credential worked for which address (`inventory.snmp_remembered`).
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../shared/db/index.js'
import { countRows, getRow, moveTo, type OrderedRows } from './ordered-rows.js'
import { ApiError } from '../../shared/errors.js'
import { credentialCreate, credentialPatch } from './bodies.js'
import { MAX_CREDENTIALS, mergeCredential, secretsOf, type CredentialSecrets, type SnmpCredential } from './credentials.js'
import { open, seal } from './secret-key.js'


const ROWS: OrderedRows = { table: 'inventory.snmp_credentials', noun: 'SNMP credential' }
interface Row {
  id: string
  position: number
  name: string
  version: '2c' | '3'
  username: string | null
  auth_protocol: string | null
  priv_protocol: string | null
  secret: string
  /** JSON array of networks (migration 203). */
  networks: string
}

export { MAX_CREDENTIALS } from './credentials.js'

function decode(key: Buffer, r: Row): SnmpCredential {
  let s: CredentialSecrets
  try {
    s = JSON.parse(open(key, r.secret, r.id)) as CredentialSecrets
  } catch {
    throw new ApiError('API_CONFLICT', `SNMP credential "${r.name}" cannot be decrypted: the credential key is not the one it was stored with (CREDENTIALS_KEY)`)
  }
  const networks = JSON.parse(r.networks) as string[]
  if (r.version === '2c') return { id: r.id, name: r.name, networks, version: '2c', community: s.community ?? '' }
  return {
    id: r.id,
    name: r.name,
    networks,
    version: '3',
    user: r.username ?? '',
    authProtocol: (r.auth_protocol as 'SHA' | 'SHA-256' | null) ?? null,
    authPassword: s.authPassword ?? null,
    privProtocol: (r.priv_protocol as 'AES' | null) ?? null,
    privPassword: s.privPassword ?? null,
  }
}

export async function countCredentials(db: Queryable): Promise<number> {
  return countRows(db, ROWS)
}

/** Every credential in the order they are tried, with its position (1-based). */
export async function listCredentials(db: Queryable, key: Buffer): Promise<Array<{ credential: SnmpCredential; position: number }>> {
  const r = await db.query<Row>('SELECT * FROM inventory.snmp_credentials ORDER BY position, id')
  return r.rows.map((row, i) => ({ credential: decode(key, row), position: i + 1 }))
}


async function write(db: Queryable, key: Buffer, c: SnmpCredential, position: number, now: number): Promise<void> {
  const v3 = c.version === '3' ? c : null
  await db.query(
    `INSERT INTO inventory.snmp_credentials (id, position, name, version, username, auth_protocol, priv_protocol, secret, networks, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10, $9, $9)
     ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name, version = EXCLUDED.version, username = EXCLUDED.username,
       auth_protocol = EXCLUDED.auth_protocol, priv_protocol = EXCLUDED.priv_protocol, secret = EXCLUDED.secret, networks = EXCLUDED.networks, updated_at = EXCLUDED.updated_at`,
    [c.id, position, c.name, c.version, v3?.user ?? null, v3?.authProtocol ?? null, v3?.privProtocol ?? null, seal(key, JSON.stringify(secretsOf(c)), c.id), now, JSON.stringify(c.networks)],
  )
}

/** Checks (schemas.ts `CredentialCreate`) and appends a credential (or puts it at `position`); returns it with its position. */
export async function createCredential(db: Queryable, key: Buffer, body: unknown, now: number): Promise<{ credential: SnmpCredential; position: number }> {
  const { position, ...rest } = credentialCreate.parse(body)
  const count = await countCredentials(db)
  if (count >= MAX_CREDENTIALS) throw new ApiError('API_CONFLICT', `At most ${MAX_CREDENTIALS} SNMP credentials can be kept; delete one first`)
  const c = mergeCredential(undefined, rest, randomUUID(), `credential ${count + 1}`)
  await write(db, key, c, (count + 1) * 10, now)
  if (position !== undefined) await moveTo(db, ROWS, c.id, position)
  return (await listCredentials(db, key)).find((x) => x.credential.id === c.id)!
}

/** Renumbers the order so that `id` is tried at `position` (1-based). */

/** Checks (schemas.ts `CredentialPatch`) and applies a change of a credential. */
export async function updateCredential(db: Queryable, key: Buffer, id: string, body: unknown, now: number): Promise<{ credential: SnmpCredential; position: number }> {
  const row = await getRow<Row>(db, ROWS, id)
  const { position, ...rest } = credentialPatch.parse(body)
  const c = mergeCredential(decode(key, row), rest, id, row.name)
  await write(db, key, c, row.position, now)
  if (position !== undefined) await moveTo(db, ROWS, id, position)
  const list = await listCredentials(db, key)
  return list.find((x) => x.credential.id === id)!
}

export async function deleteCredential(db: Queryable, id: string): Promise<void> {
  await getRow<Row>(db, ROWS, id)
  await db.query('DELETE FROM inventory.snmp_credentials WHERE id = $1', [id])
  await db.query('DELETE FROM inventory.snmp_remembered WHERE credential_id = $1', [id])
}

/** Credential id that worked last, per address. */
export async function rememberedCredentials(db: Queryable): Promise<Map<string, string>> {
  const r = await db.query<{ address: string; credential_id: string }>('SELECT address, credential_id FROM inventory.snmp_remembered')
  return new Map(r.rows.map((x) => [x.address, x.credential_id]))
}

export async function rememberCredentials(db: Queryable, worked: ReadonlyArray<{ address: string; credentialId: string }>, now: number): Promise<void> {
  for (const w of worked) {
    await db.query(
      `INSERT INTO inventory.snmp_remembered (address, credential_id, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (address) DO UPDATE SET credential_id = EXCLUDED.credential_id, updated_at = EXCLUDED.updated_at`,
      [w.address, w.credentialId, now],
    )
  }
}
