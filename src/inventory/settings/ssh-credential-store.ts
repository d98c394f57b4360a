/**
 * SSH credentials in the database (`inventory.ssh_credentials`), in the order they are tried;
 * the secrets are sealed with the credential key (as the SNMP credentials' are), bound to the
 * credential id.
 */
import { randomUUID } from 'node:crypto'
import type { Queryable } from '../../shared/db/index.js'
import { countRows, getRow, moveTo, type OrderedRows } from './ordered-rows.js'
import { ApiError } from '../../shared/errors.js'
import { sshCredentialCreate, sshCredentialPatch } from './bodies.js'
import { MAX_CREDENTIALS } from './credentials.js'
import { open, seal } from './secret-key.js'
import { mergeSshCredential, sshSecretsOf, type SshCredential, type SshSecrets } from './ssh-credentials.js'


const ROWS: OrderedRows = { table: 'inventory.ssh_credentials', noun: 'SSH credential' }
interface Row {
  id: string
  position: number
  name: string
  username: string
  port: number
  secret: string
  networks: string
}

function decode(key: Buffer, r: Row): SshCredential {
  let s: SshSecrets
  try {
    s = JSON.parse(open(key, r.secret, r.id)) as SshSecrets
  } catch {
    throw new ApiError('API_CONFLICT', `SSH credential "${r.name}" cannot be decrypted: the credential key is not the one it was stored with (CREDENTIALS_KEY)`)
  }
  return { id: r.id, name: r.name, networks: JSON.parse(r.networks) as string[], user: r.username, port: r.port, password: s.password, privateKey: s.privateKey, passphrase: s.passphrase }
}

/** Every SSH credential in the order they are tried, with its position (1-based). */
export async function listSshCredentials(db: Queryable, key: Buffer): Promise<Array<{ credential: SshCredential; position: number }>> {
  const r = await db.query<Row>('SELECT * FROM inventory.ssh_credentials ORDER BY position, id')
  return r.rows.map((row, i) => ({ credential: decode(key, row), position: i + 1 }))
}


async function write(db: Queryable, key: Buffer, c: SshCredential, position: number, now: number): Promise<void> {
  await db.query(
    `INSERT INTO inventory.ssh_credentials (id, position, name, username, port, secret, networks, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name, username = EXCLUDED.username, port = EXCLUDED.port,
       secret = EXCLUDED.secret, networks = EXCLUDED.networks, updated_at = EXCLUDED.updated_at`,
    [c.id, position, c.name, c.user, c.port, seal(key, JSON.stringify(sshSecretsOf(c)), c.id), JSON.stringify(c.networks), now],
  )
}


/** Checks (schemas.ts `SshCredentialCreate`) and appends a credential (or puts it at `position`). */
export async function createSshCredential(db: Queryable, key: Buffer, body: unknown, now: number): Promise<{ credential: SshCredential; position: number }> {
  const { position, ...rest } = sshCredentialCreate.parse(body)
  const count = await countRows(db, ROWS)
  if (count >= MAX_CREDENTIALS) throw new ApiError('API_CONFLICT', `At most ${MAX_CREDENTIALS} SSH credentials can be kept; delete one first`)
  const c = mergeSshCredential(undefined, rest, randomUUID(), `ssh credential ${count + 1}`)
  await write(db, key, c, (count + 1) * 10, now)
  if (position !== undefined) await moveTo(db, ROWS, c.id, position)
  return (await listSshCredentials(db, key)).find((x) => x.credential.id === c.id)!
}

/** Checks (schemas.ts `SshCredentialPatch`) and applies a change of a credential. */
export async function updateSshCredential(db: Queryable, key: Buffer, id: string, body: unknown, now: number): Promise<{ credential: SshCredential; position: number }> {
  const row = await getRow<Row>(db, ROWS, id)
  const { position, ...rest } = sshCredentialPatch.parse(body)
  const c = mergeSshCredential(decode(key, row), rest, id, row.name)
  await write(db, key, c, row.position, now)
  if (position !== undefined) await moveTo(db, ROWS, id, position)
  return (await listSshCredentials(db, key)).find((x) => x.credential.id === id)!
}

export async function deleteSshCredential(db: Queryable, id: string): Promise<void> {
  await getRow<Row>(db, ROWS, id)
  await db.query('DELETE FROM inventory.ssh_credentials WHERE id = $1', [id])
}
