/**
 * The SSH host key of every address and port netinv logged in to (`inventory.ssh_host_keys`):
 * recorded on first contact, and from then on the only key accepted there. A different key is
 * never written over the recorded one; an operator who replaced a device forgets its key with
 * `DELETE settings/ssh/host-keys/{address}`.
 */
import type { Queryable } from '../../../../shared/db/index.js'
import type { HostKey } from './session.js'

export const hostKeyId = (address: string, port: number) => `${address}:${port}`

export interface RecordedHostKey extends HostKey {
  address: string
  port: number
  firstSeenAt: number
  lastSeenAt: number
}

interface Row {
  address: string
  port: number
  algorithm: string
  fingerprint: string
  first_seen_at: string | number
  last_seen_at: string | number
}

export async function listHostKeys(db: Queryable): Promise<RecordedHostKey[]> {
  const r = await db.query<Row>('SELECT * FROM inventory.ssh_host_keys ORDER BY address, port')
  return r.rows.map((x) => ({ address: x.address, port: x.port, algorithm: x.algorithm, fingerprint: x.fingerprint, firstSeenAt: Number(x.first_seen_at), lastSeenAt: Number(x.last_seen_at) }))
}

/** The recorded keys by `address:port`. */
export async function knownHostKeys(db: Queryable): Promise<Map<string, HostKey>> {
  return new Map((await listHostKeys(db)).map((k) => [hostKeyId(k.address, k.port), { algorithm: k.algorithm, fingerprint: k.fingerprint }]))
}

/** Records keys seen for the first time and marks recorded ones seen; a different key never replaces a recorded one. */
export async function recordHostKeys(db: Queryable, seen: ReadonlyArray<{ address: string; port: number; key: HostKey }>, now: number): Promise<void> {
  for (const s of seen) {
    await db.query(
      `INSERT INTO inventory.ssh_host_keys (address, port, algorithm, fingerprint, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (address, port) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at WHERE inventory.ssh_host_keys.fingerprint = EXCLUDED.fingerprint`,
      [s.address, s.port, s.key.algorithm, s.key.fingerprint, now],
    )
  }
}

/** Forgets the keys of an address (every port); returns how many were removed. */
export async function forgetHostKeys(db: Queryable, address: string): Promise<number> {
  const r = await db.query<{ address: string }>('DELETE FROM inventory.ssh_host_keys WHERE address = $1 RETURNING address', [address])
  return r.rows.length
}
