/**
 * The request bodies of the settings endpoints, as JSON Schema (TypeBox): the simulator's keys
 * (profile, seed, sites), network discovery's (include, exclude, allowedSpecialNetworks, limits,
 * siteRules, defaultSite, schedule), the seed list and the SNMP credentials. The routes check bodies with these and the
 * OpenAPI document publishes the same objects; what a schema cannot say (a site of the chosen
 * profile, which credential keys apply to which version) is checked by code after it.
 */
import { Type, type Static } from '@sinclair/typebox'
import { defineFormat, REGEX_FORMAT, shown } from '../../shared/schema/index.js'
import { PROFILE_NAMES } from '../simulator/index.js'
import { LIMITS, MAX_NETWORKS, MAX_RULES, MAX_SEEDS, MIN_SEED_PREFIX, normaliseNetwork } from './bounds.js'
import { AUTH_PROTOCOLS, CREDENTIAL_KEYS, MAX_CREDENTIALS, PRIV_PROTOCOLS } from './credentials.js'
import { SSH_CREDENTIAL_KEYS } from './ssh-credentials.js'

export const MAX_SEED = 2 ** 31 - 1

/** "10.0.0.0/8", or an address (a /32). */
const NETWORK = defineFormat('ipv4-network', (v) => (normaliseNetwork(v) === null ? `must be an IPv4 network such as "10.0.0.0/8": ${shown(v)}` : undefined))

/** An address or a network of at most a /20 that a crawl may start from. */
const SEED = defineFormat('ipv4-seed', (v) => {
  const n = normaliseNetwork(v)
  if (n === null) return `must be an IPv4 address or network such as "10.0.0.1" or "10.0.0.0/24": ${shown(v)}`
  if (Number(n.split('/')[1]) < MIN_SEED_PREFIX) return `is larger than a /${MIN_SEED_PREFIX}; bound the crawl with "include" instead`
  return undefined
})

/** The simulator's settings, each optional (a change names only what it changes). */
export const SIMULATOR_PROPERTIES = {
  profile: Type.Optional(Type.Union(
    PROFILE_NAMES.map((p) => Type.Literal(p)),
    { description: 'Simulated network to discover.' },
  )),
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SEED, description: 'Seed of the simulated network.', 'x-message': `must be an integer between 0 and ${MAX_SEED}` })),
  sites: Type.Optional(Type.Array(Type.String({ 'x-message': 'must be a site name' }), {
    uniqueItems: true,
    description: 'Site names of the profile to discover; empty for every site.',
    'x-message': 'must be an array of site names',
    'x-messages': { uniqueItems: 'must not repeat a site' },
  })),
}

export const Seed = Type.String({ format: SEED, description: `An IPv4 address or a network of at most a /${MIN_SEED_PREFIX}.` })

export const SeedList = Type.Array(Seed, {
  maxItems: MAX_SEEDS,
  description: 'Seed addresses and networks network discovery starts from.',
  'x-message': `must be a JSON array of at most ${MAX_SEEDS} IPv4 addresses or networks`,
})

const networks = (description: string) =>
  Type.Array(Type.String({ format: NETWORK }), { maxItems: MAX_NETWORKS, description, 'x-message': `must be an array of at most ${MAX_NETWORKS} networks ("10.0.0.0/8")` })

const siteName = (description: string) => Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description, 'x-message': 'must be a site name of 1 to 100 characters' })

const matcher = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, format: REGEX_FORMAT, description, 'x-message': 'must be a regular expression of 1 to 200 characters', 'x-messages': { format: 'is not a valid regular expression' } })

const limit = (range: readonly [number, number], description: string) =>
  Type.Integer({ minimum: range[0], maximum: range[1], description, 'x-message': `must be an integer between ${range[0]} and ${range[1]}` })

const EXACTLY_ONE = 'must have exactly one of sysLocation, hostname or subnet'

export const SiteRule = Type.Object(
  {
    site: siteName('Site of the devices the rule matches.'),
    sysLocation: Type.Optional(matcher('Case-insensitive regular expression on sysLocation.')),
    hostname: Type.Optional(matcher('Case-insensitive regular expression on the hostname.')),
    subnet: Type.Optional(Type.String({ format: NETWORK, description: 'The login address lies in this network.', 'x-message': 'must be an IPv4 network such as "10.1.0.0/16"' })),
  },
  {
    // site and exactly one matcher
    minProperties: 2,
    maxProperties: 2,
    additionalProperties: false,
    description: 'A site and exactly one of sysLocation, hostname or subnet.',
    'x-additional-message': 'is not allowed; allowed keys are [site, sysLocation, hostname, subnet]',
    'x-messages': { type: 'must be an object', minProperties: EXACTLY_ONE, maxProperties: EXACTLY_ONE },
  },
)

/** Network discovery's settings, each optional. */
export const NETWORK_PROPERTIES = {
  include: Type.Optional(networks('Networks the crawl stays in; empty for no bound.')),
  exclude: Type.Optional(networks('Networks the crawl never enters.')),
  allowedSpecialNetworks: Type.Optional(networks(
    'Networks of the classes never contacted otherwise (loopback, link-local, multicast, broadcast, unspecified, reserved, and the addresses of the machine netinv runs on) that discovery may contact all the same; include and exclude still apply.',
  )),
  limits: Type.Optional(Type.Object(
    {
      concurrency: Type.Optional(limit(LIMITS.concurrency, 'Devices collected at once.')),
      timeoutMs: Type.Optional(limit(LIMITS.timeoutMs, 'Time to wait for one SNMP answer.')),
      retries: Type.Optional(limit(LIMITS.retries, 'Times a request is sent again after a timeout.')),
      maxDevices: Type.Optional(limit(LIMITS.maxDevices, 'Devices one discovery collects at most.')),
      sshTimeoutMs: Type.Optional(limit(LIMITS.sshTimeoutMs, 'Time to wait for an SSH login, and for each prompt while a configuration is read.')),
      counterIntervalMs: Type.Optional(limit(LIMITS.counterIntervalMs, 'Time between the two readings of each device\'s interface counters that give interfaces/counters its traffic rates (the rest of the collection counts toward it); 0, the default, reads them once and leaves the rates out.')),
    },
    { additionalProperties: false, 'x-message': 'must be an object', 'x-additional-message': `is not allowed; allowed keys are [${Object.keys(LIMITS).join(', ')}]` },
  )),
  siteRules: Type.Optional(Type.Array(SiteRule, { maxItems: MAX_RULES, description: 'Rules that assign devices to sites, the first that matches wins.', 'x-message': `must be an array of at most ${MAX_RULES} rules` })),
  defaultSite: Type.Optional(siteName('Site of the devices no rule matches.')),
  schedule: Type.Optional(Type.Object(
    {
      enabled: Type.Optional(Type.Boolean({ description: 'Whether discoveries start on their own.' })),
      intervalMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 10080, description: 'Minutes between two discoveries.', 'x-message': 'must be an integer between 5 and 10080' })),
    },
    {
      additionalProperties: false,
      'x-message': 'must be an object with "enabled" (boolean) and "intervalMinutes" (5 to 10080)',
      'x-additional-message': 'is not allowed; allowed keys are [enabled, intervalMinutes]',
    },
  )),
}

const keysOf = (props: object) => Object.keys(props).join(', ')

/** `PATCH settings`: the simulator's and network discovery's settings (seeds have their own endpoint). */
/** `networks: {include, exclude}`: the same two lists as the Python SDK's Discovery settings name them. */
const SDK_NETWORKS = {
  networks: Type.Optional(
    Type.Object(
      { include: NETWORK_PROPERTIES.include, exclude: NETWORK_PROPERTIES.exclude },
      { additionalProperties: false, description: 'include and exclude, as the Python SDK sends them (the same lists as the top-level keys; give each once).', 'x-additional-message': 'is not allowed; allowed keys are [include, exclude]' },
    ),
  ),
}

export const SettingsPatch = Type.Object(
  { ...SIMULATOR_PROPERTIES, ...NETWORK_PROPERTIES, ...SDK_NETWORKS },
  { additionalProperties: false, 'x-additional-message': `is not allowed; allowed keys are [${keysOf({ ...SIMULATOR_PROPERTIES, ...NETWORK_PROPERTIES, ...SDK_NETWORKS })}]` },
)
export type SettingsPatch = Static<typeof SettingsPatch>

/** The simulator's settings alone (as stored). */
export const SimulatorSettingsPatch = Type.Object(SIMULATOR_PROPERTIES, {
  additionalProperties: false,
  'x-additional-message': `is not allowed; allowed keys are [${keysOf(SIMULATOR_PROPERTIES)}]`,
})
export type SimulatorSettingsPatch = Static<typeof SimulatorSettingsPatch>
export type NetworkSettingsPatch = Static<ReturnType<typeof Type.Object<typeof NETWORK_PROPERTIES>>>

const credentialText = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^[^\\u0000\\r\\n]*$', description, 'x-message': `must be a string of ${min} to ${max} characters without line breaks` })
const password = (description: string) =>
  Type.Union([credentialText(8, 255, description), Type.Null()], { description, 'x-message': 'must be a string of 8 to 255 characters without line breaks' })
const protocol = <T extends string>(values: readonly T[], description: string) =>
  Type.Union([...values.map((v) => Type.Literal(v)), Type.Null()], { description, 'x-message': `must be one of [${values.join(', ')}], or null` })

/** An SNMP credential; `required` names the keys a new one must have. */
function credential(versionRequired: boolean) {
  const version = Type.Union([Type.Literal('2c'), Type.Literal('3')], { description: 'SNMP version.', 'x-message': 'must be one of [2c, 3]' })
  return Type.Object(
    {
      name: Type.Optional(credentialText(1, 100, 'Name shown in lists and reports.')),
      version: versionRequired ? version : Type.Optional(version),
      community: Type.Optional(credentialText(1, 255, 'Community (version 2c); "********" keeps the stored one.')),
      user: Type.Optional(credentialText(1, 32, 'User name (version 3).')),
      authProtocol: Type.Optional(protocol(AUTH_PROTOCOLS, 'Authentication protocol (version 3); null for none (and no privacy).')),
      authPassword: Type.Optional(password('Authentication password, 8 characters or more; "********" keeps the stored one.')),
      privProtocol: Type.Optional(protocol(PRIV_PROTOCOLS, 'Privacy protocol (version 3, needs authentication); null for none.')),
      privPassword: Type.Optional(password('Privacy password, 8 characters or more; "********" keeps the stored one.')),
      networks: Type.Optional(Type.Array(Type.String({ format: NETWORK }), {
        maxItems: MAX_NETWORKS,
        description: 'Networks of the devices this credential belongs to: it is offered only to addresses inside them. Empty (the default): to every address discovery contacts.',
        'x-message': `must be an array of at most ${MAX_NETWORKS} networks ("10.0.0.0/8")`,
      })),
      position: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_CREDENTIALS, description: 'Place in the order credentials are tried (1 first).', 'x-message': `must be an integer between 1 and ${MAX_CREDENTIALS}` }),
      ),
    },
    { additionalProperties: false, 'x-additional-message': `is not allowed; allowed keys are [${CREDENTIAL_KEYS.join(', ')}]` },
  )
}

/** `POST settings/snmp`. */
export const CredentialCreate = credential(true)
/** `PATCH settings/snmp/:id`: what changes; secrets sent back masked keep their value. */
export const CredentialPatch = credential(false)
export type CredentialBody = Static<typeof CredentialPatch>

/** The longest private key text accepted (an RSA 16384-bit key in PEM is about 12 kB). */
export const MAX_PRIVATE_KEY = 16_384

/** An SSH credential; a new one needs `user` and a password or a private key (checked after the schema). */
function sshCredential(userRequired: boolean) {
  const user = credentialText(1, 64, 'User name to log in with.')
  return Type.Object(
    {
      name: Type.Optional(credentialText(1, 100, 'Name shown in lists and reports.')),
      user: userRequired ? user : Type.Optional(user),
      port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'TCP port of the SSH server (22 by default).', 'x-message': 'must be an integer between 1 and 65535' })),
      password: Type.Optional(Type.Union([credentialText(1, 255, 'Password.'), Type.Null()], {
        description: 'Password (keyboard-interactive or password authentication); null for none; "********" keeps the stored one.',
        'x-message': 'must be a string of 1 to 255 characters without line breaks, or null',
      })),
      privateKey: Type.Optional(Type.Union([
        Type.String({ minLength: 1, maxLength: MAX_PRIVATE_KEY, description: 'Private key text (OpenSSH or PEM).' }),
        Type.Null(),
      ], {
        description: 'Private key as the text of its file (OpenSSH or PEM, e.g. read with jq --rawfile); null for none; "********" keeps the stored one.',
        'x-message': `must be the text of a private key file (at most ${MAX_PRIVATE_KEY} characters), or null`,
      })),
      passphrase: Type.Optional(Type.Union([credentialText(1, 255, 'Passphrase.'), Type.Null()], {
        description: 'Passphrase of an encrypted private key; null for none; "********" keeps the stored one.',
        'x-message': 'must be a string of 1 to 255 characters without line breaks, or null',
      })),
      networks: Type.Optional(Type.Array(Type.String({ format: NETWORK }), {
        maxItems: MAX_NETWORKS,
        description: 'Networks of the devices this credential belongs to: it is offered only to addresses inside them. Empty (the default): to every device discovery collects.',
        'x-message': `must be an array of at most ${MAX_NETWORKS} networks ("10.0.0.0/8")`,
      })),
      position: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_CREDENTIALS, description: 'Place in the order credentials are tried (1 first).', 'x-message': `must be an integer between 1 and ${MAX_CREDENTIALS}` }),
      ),
    },
    { additionalProperties: false, 'x-additional-message': `is not allowed; allowed keys are [${[...SSH_CREDENTIAL_KEYS, 'position'].join(', ')}]` },
  )
}

/** `POST settings/ssh`. */
export const SshCredentialCreate = sshCredential(true)
/** `PATCH settings/ssh/:id`: what changes; secrets sent back masked keep their value. */
export const SshCredentialPatch = sshCredential(false)
export type SshCredentialBody = Static<typeof SshCredentialPatch>

/** `POST discovery/trigger-config-backup`: the device by serial or by login address (exactly one, checked after the schema). */
export const ConfigBackupRequest = Type.Object(
  {
    sn: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Serial number (sn) of the device.', 'x-message': 'must be a serial number of 1 to 200 characters' })),
    ip: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Login address of the device (IPv4).', 'x-message': 'must be an IPv4 address' })),
  },
  { additionalProperties: false, description: 'One of sn and ip.', 'x-additional-message': 'is not allowed; allowed keys are [sn, ip]' },
)
