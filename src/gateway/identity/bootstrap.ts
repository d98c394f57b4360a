/**
 * First start: an empty identity store gets `admin` (all scopes, administrator, EULA approved)
 * with ADMIN_PASSWORD, or a generated password that is printed once (never logged).
 */
import type { Db } from '../../shared/db/index.js'
import { SCOPES } from '../../shared/manifest.js'
import { randomToken } from './secrets.js'
import type { UserStore } from './users.js'

const BOOTSTRAP_LOCK = 0x6e657469 // "neti"

export async function ensureAdmin(
  db: Db,
  users: UserStore,
  options: { adminPassword?: string | undefined; print: (line: string) => void },
): Promise<boolean> {
  const password = options.adminPassword ?? randomToken(24)
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK])
    if ((await users.count(tx)) > 0) return false
    await users.create({ username: 'admin', password, scopes: SCOPES, isAdmin: true, eulaApproved: true }, tx)
    return true
  })
  if (created && options.adminPassword === undefined) {
    options.print(`Created user "admin" with the generated password: ${password}\nIt is shown only now; change it with \`netinv user passwd admin\`.`)
  }
  return created
}
