/**
 * Routes of the global discovery settings: the simulator's and the network discovery's
 * (`settings`), the seed list (`settings/seed`) and the SNMP credentials (`settings/snmp`, secrets
 * masked in every answer).
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { readJson, readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import { ApiError } from '../../shared/errors.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { createCredential, deleteCredential, listCredentials, updateCredential } from '../settings/credential-store.js'
import { maskCredential } from '../settings/credentials.js'
import { getSettings, mergeSettings, patchSettings } from '../settings/index.js'
import { NETWORK_KEYS, getNetworkSettings, mergeNetwork, parseSeeds, saveNetworkSettings } from '../settings/network.js'

export function registerSettingsRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  const limit = svc.config.server.bodyLimitBytes
  const view = async () => {
    const { seeds: _s, ...network } = await getNetworkSettings(svc.db)
    return { ...(await getSettings(svc.db)), ...network }
  }

  router.add('GET', 'settings', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, await view())
  })
  router.add('PATCH', 'settings', async (_ctx, _m, req, res) => {
    const body = await readJsonObject(req, limit)
    const issues: ValidationIssue[] = []
    const simulatorPart = Object.fromEntries(Object.entries(body).filter(([k]) => !(NETWORK_KEYS as readonly string[]).includes(k)))
    try {
      mergeSettings(await getSettings(svc.db), simulatorPart, NETWORK_KEYS)
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err
      issues.push(...err.errors)
    }
    const network = mergeNetwork(await getNetworkSettings(svc.db), body, issues)
    if (issues.length > 0) throw invalidInput(issues)
    await patchSettings(svc.db, simulatorPart, svc.now())
    await saveNetworkSettings(svc.db, network, svc.now())
    sendJson(res, 200, await view())
  })

  router.add('GET', 'settings/seed', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, (await getNetworkSettings(svc.db)).seeds)
  })
  router.add('PUT', 'settings/seed', async (_ctx, _m, req, res) => {
    const seeds = parseSeeds(await readJson(req, limit))
    await saveNetworkSettings(svc.db, { ...(await getNetworkSettings(svc.db)), seeds }, svc.now())
    sendJson(res, 200, seeds)
  })

  router.add('GET', 'settings/snmp', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, (await listCredentials(svc.db, svc.credentialKey)).map((c) => maskCredential(c.credential, c.position)))
  })
  router.add('POST', 'settings/snmp', async (_ctx, _m, req, res) => {
    const c = await createCredential(svc.db, svc.credentialKey, await readJson(req, limit), svc.now())
    sendJson(res, 201, maskCredential(c.credential, c.position))
  })
  router.add('PATCH', 'settings/snmp/:id', async (_ctx, m, req, res) => {
    const c = await updateCredential(svc.db, svc.credentialKey, m.params.id!, await readJson(req, limit), svc.now())
    sendJson(res, 200, maskCredential(c.credential, c.position))
  })
  router.add('DELETE', 'settings/snmp/:id', async (_ctx, m, _req, res) => {
    await deleteCredential(svc.db, m.params.id!)
    sendEmpty(res, 204)
  })
}
