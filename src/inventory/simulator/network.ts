/**
 * The skeleton of a simulated network: sites and the devices each may hold, derived from the
 * seed and the profile alone. Which devices answer a given discovery depends on the generation
 * (the number of earlier discoveries of the same network): a few access switches and access
 * points come and go, as in a real network between two discoveries.
 */
import { paced } from '../../shared/pace.js'
import { PROFILES, type Profile, type ProfileName } from './profiles.js'
import { DEV_TYPE, PLATFORMS, type Platform, type Role } from './platforms.js'
import { TAG, between, pick, unit, weighted } from './prng.js'

export interface SimSettings {
  profile: ProfileName
  seed: number
  /** Names of the sites to discover; empty for all. */
  sites: readonly string[]
  /** Number of earlier discoveries of the same network (0 for the first). */
  generation: number
}

export interface SimSite {
  index: number
  name: string
  /** Short lower-case code used in hostnames, e.g. "ber01". */
  code: string
  /** First address of the site's 10.x.y.0/20 block, as a 32-bit integer. */
  base: number
  domain: string
  devices: SimDevice[]
}

export interface SimDevice {
  /** Global index, stable across generations (site index * 16 + position in the site). */
  index: number
  site: SimSite
  /** Position in the site's device list. */
  local: number
  role: Role
  devType: string
  /** 1-based number among the site's devices of the same role. */
  ordinal: number
  platform: Platform
  version: string
  /** Stack members (access switches), 1 otherwise. */
  members: number
  sn: string
  hostname: string
  /** Core devices answer every discovery; the others are missing now and then. */
  core: boolean
}

export interface SimNetwork {
  settings: SimSettings
  profile: Profile
  /** The sites this discovery covers (the settings' site list, or all). */
  sites: SimSite[]
  /** Whether a device answers discovery in a generation (default: the settings' generation). */
  present(device: SimDevice, generation?: number): boolean
}

const CITIES = [
  ['Berlin', 'ber'], ['London', 'lon'], ['Paris', 'par'], ['Madrid', 'mad'], ['Rome', 'rom'], ['Vienna', 'vie'], ['Prague', 'prg'],
  ['Warsaw', 'waw'], ['Amsterdam', 'ams'], ['Brussels', 'bru'], ['Zurich', 'zrh'], ['Stockholm', 'sto'], ['Oslo', 'osl'], ['Helsinki', 'hel'],
  ['Dublin', 'dub'], ['Lisbon', 'lis'], ['Athens', 'ath'], ['Budapest', 'bud'], ['Bratislava', 'bts'], ['Copenhagen', 'cph'], ['New York', 'nyc'],
  ['Chicago', 'chi'], ['Dallas', 'dal'], ['Denver', 'den'], ['Seattle', 'sea'], ['Boston', 'bos'], ['Atlanta', 'atl'], ['Toronto', 'yyz'],
  ['Montreal', 'yul'], ['Mexico City', 'mex'], ['Sao Paulo', 'sao'], ['Buenos Aires', 'bue'], ['Tokyo', 'tyo'], ['Singapore', 'sin'],
  ['Sydney', 'syd'], ['Mumbai', 'bom'], ['Dubai', 'dxb'], ['Johannesburg', 'jnb'], ['Seoul', 'sel'], ['Hong Kong', 'hkg'],
] as const

const ROLE_CODE: Readonly<Record<Role, string>> = { router: 'rtr', dist: 'dsw', fw: 'fw', access: 'asw', ap: 'ap' }

/** Names of every site of a profile, in order (for validating a site list). */
export function siteNames(profile: ProfileName): string[] {
  return Array.from({ length: PROFILES[profile].sites }, (_, i) => siteName(i))
}

function siteName(i: number): string {
  const [city] = CITIES[i % CITIES.length]!
  return `${city.toUpperCase()}-${String(Math.floor(i / CITIES.length) + 1).padStart(2, '0')}`
}

function serial(prefix: string, seed: number, index: number): string {
  const noise = between(0, 36 ** 3 - 1, seed, TAG.serial, index).toString(36).padStart(3, '0')
  return `${prefix}${noise}${index.toString(36).padStart(5, '0')}`.toUpperCase()
}

function buildSite(seed: number, profile: Profile, index: number): SimSite {
  const [, cityCode] = CITIES[index % CITIES.length]!
  const code = `${cityCode}${String(Math.floor(index / CITIES.length) + 1).padStart(2, '0')}`
  const site: SimSite = { index, name: siteName(index), code, base: ((10 << 24) >>> 0) + index * 4096, domain: `${code}.corp.example.net`, devices: [] }
  const access = between(profile.accessSwitches[0], profile.accessSwitches[1], seed, TAG.accessCount, index)
  const aps = 1 + (unit(seed, TAG.extra, index) < 0.3 ? 1 : 0)
  const roles: Role[] = ['router', 'router', 'dist', 'dist', 'fw', ...Array<Role>(access).fill('access'), ...Array<Role>(aps).fill('ap')]
  // one platform per role per site, as sites are built to a standard
  const chosen = new Map<Role, Platform>()
  for (const role of new Set(roles)) chosen.set(role, weighted(PLATFORMS[role], seed, TAG.platform, index, role.length * 31 + role.charCodeAt(0)))
  const ordinals = new Map<Role, number>()
  roles.forEach((role, local) => {
    const ordinal = (ordinals.get(role) ?? 0) + 1
    ordinals.set(role, ordinal)
    const platform = chosen.get(role)!
    const deviceIndex = index * 16 + local
    site.devices.push({
      index: deviceIndex,
      site,
      local,
      role,
      devType: DEV_TYPE[role],
      ordinal,
      platform,
      version: pick(platform.versions, seed, TAG.version, deviceIndex),
      members: role === 'access' ? between(profile.stackMembers[0], profile.stackMembers[1], seed, TAG.stack, deviceIndex) : 1,
      sn: serial(platform.snPrefix, seed, deviceIndex),
      hostname: `${code}-${ROLE_CODE[role]}${String(ordinal).padStart(2, '0')}`,
      core: role === 'router' || role === 'dist' || role === 'fw' || (role === 'access' && ordinal === 1),
    })
  })
  return site
}

/** Share of non-core devices missing from one discovery. */
const ABSENCE = 0.03

/** The sites a discovery with these settings covers, one at a time. */
function* networkSites(settings: SimSettings): Generator<SimSite> {
  const profile = PROFILES[settings.profile]
  const wanted = new Set(settings.sites)
  for (let i = 0; i < profile.sites; i++) {
    if (wanted.size > 0 && !wanted.has(siteName(i))) continue
    yield buildSite(settings.seed, profile, i)
  }
}

function networkOf(settings: SimSettings, sites: SimSite[]): SimNetwork {
  return {
    settings,
    profile: PROFILES[settings.profile],
    sites,
    present(device, generation = settings.generation) {
      return device.core || unit(settings.seed, TAG.presence, device.index, generation) >= ABSENCE
    },
  }
}

export function buildNetwork(settings: SimSettings): SimNetwork {
  return networkOf(settings, [...networkSites(settings)])
}

/** `buildNetwork` in turns of the event loop (the "large" network's skeleton costs tens of milliseconds): for the service. */
export async function buildNetworkInTurns(settings: SimSettings): Promise<SimNetwork> {
  const sites: SimSite[] = []
  for await (const site of paced(networkSites(settings))) sites.push(site)
  return networkOf(settings, sites)
}
