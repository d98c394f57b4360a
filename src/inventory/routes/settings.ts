/**
 * Routes of the global discovery settings: the simulator's and the network discovery's
 * (`settings`), the seed list (`settings/seed`) and the SNMP credentials (`settings/snmp`, secrets
 * masked in every answer), and the same settings as the Python SDK reads them (`settings/credentials`,
 * `settings/privileges`, `settings/vendor-api`, `settings/site-separation`).
 */
import { readJson, readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { AddressPolicy } from '../discovery/network/address-policy.js'
import { seedIssues } from '../discovery/network/seeds.js'
import { seedList, settingsPatch } from '../settings/bodies.js'
import { createCredential, deleteCredential, listCredentials, updateCredential } from '../settings/credential-store.js'
import { maskCredential } from '../settings/credentials.js'
import { getSettings, patchSettings } from '../settings/index.js'
import { getNetworkSettings, mergeNetwork, normaliseSeeds, saveNetworkSettings } from '../settings/network.js'
import { sdkCredential, sdkSiteSeparation } from '../settings/sdk-views.js'
import { createSshCredential, deleteSshCredential, listSshCredentials, updateSshCredential } from '../settings/ssh-credential-store.js'
import { maskSshCredential } from '../settings/ssh-credentials.js'
import { forgetHostKeys, listHostKeys } from '../discovery/network/ssh/host-keys.js'
import { isIpv4 } from '../../shared/ipv4.js'
import { invalidInput, notFound } from '../../shared/errors.js'

export function registerSettingsRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  const limit = svc.config.server.bodyLimitBytes
  const view = async () => {
    const { seeds: _s, ...network } = await getNetworkSettings(svc.db)
    // `networks`: the same lists where the Python SDK's Discovery settings read them
    return { ...(await getSettings(svc.db)), ...network, networks: { include: network.include, exclude: network.exclude } }
  }

  router.add('GET', 'settings', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, await view())
  })
  router.add('PATCH', 'settings', async (_ctx, _m, req, res) => {
    const { profile, seed, sites, networks, ...networkPart } = settingsPatch.parse(await readJsonObject(req, limit))
    for (const key of ['include', 'exclude'] as const) {
      if (networks?.[key] === undefined) continue
      if (networkPart[key] !== undefined) throw invalidInput([{ message: `"networks.${key}" and "${key}" are the same list: give it once`, path: `networks.${key}` }])
      networkPart[key] = networks[key]
    }
    // the sites are checked against the profile (after the schema) before anything is stored
    await patchSettings(svc.db, { profile, seed, sites }, svc.now())
    await saveNetworkSettings(svc.db, mergeNetwork(await getNetworkSettings(svc.db), networkPart), svc.now())
    sendJson(res, 200, await view())
  })

  router.add('GET', 'settings/seed', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, (await getNetworkSettings(svc.db)).seeds)
  })
  router.add('PUT', 'settings/seed', async (_ctx, _m, req, res) => {
    const body = await readJson(req, limit)
    const current = await getNetworkSettings(svc.db)
    // the schema's problems and the address policy's (address-policy.ts) in one answer
    const issues = seedList.problems(body)
    if (Array.isArray(body)) issues.push(...seedIssues(body, new AddressPolicy(current), (i) => `"[${i}]"`, (i) => `[${i}]`))
    seedList.assert(issues)
    const seeds = normaliseSeeds(body as string[])
    await saveNetworkSettings(svc.db, { ...current, seeds }, svc.now())
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

  router.add('GET', 'settings/ssh', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, (await listSshCredentials(svc.db, svc.credentialKey)).map((c) => maskSshCredential(c.credential, c.position)))
  })
  router.add('POST', 'settings/ssh', async (_ctx, _m, req, res) => {
    const c = await createSshCredential(svc.db, svc.credentialKey, await readJson(req, limit), svc.now())
    sendJson(res, 201, maskSshCredential(c.credential, c.position))
  })
  router.add('GET', 'settings/ssh/host-keys', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, await listHostKeys(svc.db))
  })
  router.add('DELETE', 'settings/ssh/host-keys/:address', async (_ctx, m, _req, res) => {
    const address = m.params.address!
    if (!isIpv4(address)) throw invalidInput([{ message: `must be an IPv4 address: ${JSON.stringify(address).slice(0, 60)}`, path: 'address' }])
    if ((await forgetHostKeys(svc.db, address)) === 0) throw notFound(`No SSH host key is recorded for ${address}`)
    sendEmpty(res, 204)
  })
  router.add('PATCH', 'settings/ssh/:id', async (_ctx, m, req, res) => {
    const c = await updateSshCredential(svc.db, svc.credentialKey, m.params.id!, await readJson(req, limit), svc.now())
    sendJson(res, 200, maskSshCredential(c.credential, c.position))
  })
  router.add('DELETE', 'settings/ssh/:id', async (_ctx, m, _req, res) => {
    await deleteSshCredential(svc.db, m.params.id!)
    sendEmpty(res, 204)
  })

  // the settings the Python SDK's models read (sdk-views.ts): what netinv has, nothing invented
  router.add('GET', 'settings/credentials', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, { data: (await listCredentials(svc.db, svc.credentialKey)).map((c) => sdkCredential(c.credential, c.position)) })
  })
  router.add('GET', 'settings/privileges', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, { data: [] })
  })
  router.add('GET', 'settings/vendor-api', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, [])
  })
  router.add('GET', 'settings/site-separation', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, sdkSiteSeparation(await getNetworkSettings(svc.db)))
  })
}
