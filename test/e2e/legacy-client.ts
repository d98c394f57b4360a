/**
 * What the replays of older clients (the SDKs, aio-ipfabric, Nautobot, the Ansible collection)
 * share: `netinv serve` with the one recipe for older clients (legacy-recipe.ts) on a fresh
 * PostgreSQL database, the admin logged in and an API key made for the client (by a current
 * client, not the replayed one), and the replayed client's requests under the path generation
 * with httpx's headers and the key.
 */
import type { Test } from 'tap'
import { bearer, call, login, newApiKey, type Reply } from './client.js'
import { applyLegacyRecipe } from './legacy-recipe.js'
import { serve, tempDirs, type Served } from './process.js'
import { freshPostgres } from '../helpers/db.js'

/** The headers httpx 0.23 sends with every request (the Python SDKs' and aio-ipfabric's client). */
export const HTTPX_HEADERS = { 'user-agent': 'python-httpx/0.23.3', accept: '*/*', 'accept-encoding': 'gzip, deflate' }

export interface ReplayServer {
  app: Served
  base: string
  /** The admin's session, as headers. */
  admin: Record<string, string>
  /** The replayed client's API key. */
  token: string
}

/**
 * Starts `netinv serve` with the recipe on a fresh PostgreSQL database (what is replayed is the
 * clients' calls, and a large discovery takes a fraction of the embedded database's time there;
 * the embedded default has tests of its own), logs the admin in with
 * `adminPassword` and makes an API key with `scope`.
 */
export async function serveForReplay(t: Test, adminPassword: string, scope: string[]): Promise<ReplayServer> {
  const { dataDir, configDir } = tempDirs(t)
  applyLegacyRecipe(configDir)
  const { url } = await freshPostgres(t)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD: adminPassword, DATABASE_URL: url })
  const { accessToken } = await login(app.url, 'admin', adminPassword)
  const token = await newApiKey(app.url, accessToken, scope)
  return { app, base: app.url, admin: bearer(accessToken), token }
}

/** A request as the SDKs send it: under `/api/v5.0/`, httpx's headers and the API key. */
export function pathGeneration(base: string, token: string): (method: string, path: string, body?: unknown) => Promise<Reply> {
  return (method, path, body) => call(base, method, `/api/v5.0/${path}`, { headers: { ...HTTPX_HEADERS, 'x-api-token': token }, ...(body !== undefined ? { body } : {}) })
}
