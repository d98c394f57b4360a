/** The product's own release, as reported in X-Product-Version and GET /api/version. */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

function findPackageVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string }
      if (pkg.name === 'netinv' && pkg.version) return pkg.version
    } catch {
      // try the next location (src/ when run from source, dist/src/ when built)
    }
  }
  throw new Error('package.json of netinv not found')
}

/** Full release, e.g. "7.6.0". */
export const RELEASE_VERSION = findPackageVersion()

const [major = '0', minor = '0'] = RELEASE_VERSION.split('.')

/** Major and minor as numbers. */
export const PRODUCT_MAJOR = Number(major)
export const PRODUCT_MINOR = Number(minor)

/** `v<major>.<minor>` for X-Product-Version. */
export const PRODUCT_VERSION = `v${major}.${minor}`

/**
 * The release GET /api/version reports next to an advertised `apiVersion` ("v<major>.<minor>"):
 * the product's own when they agree; otherwise that version's release with ours as the local
 * part, e.g. "5.0.0+netinv.7.6.0". Clients read the major and minor of releaseVersion as the
 * product's (the 6.x SDK picks the intent defaults of that release from its first characters),
 * so it must not contradict the apiVersion they were told.
 */
export function advertisedRelease(apiVersion: string): string {
  const [major = '0', minor = '0'] = apiVersion.replace(/^v/, '').split('.')
  if (Number(major) === PRODUCT_MAJOR && Number(minor) === PRODUCT_MINOR) return RELEASE_VERSION
  return `${Number(major)}.${Number(minor)}.0+netinv.${RELEASE_VERSION}`
}

/**
 * What each address generation is told about the product's version: one place decides it.
 * - The header generation speaks for this product: `v<major>.<minor>` of X-Product-Version,
 *   release RELEASE_VERSION.
 * - The original and path generations (and GET /api/version, the SDKs' start-up probe) speak as
 *   the advertised `versioning.apiVersion`: that version, and `advertisedRelease` of it.
 * GET /api/version, GET /api/v1/os/version and the `version` of snapshots this product wrote
 * (GET snapshots) all read it, so they agree for one client.
 */
export interface ReportedVersion {
  /** `v<major>.<minor>`. */
  apiVersion: string
  /** Full release, e.g. "7.6.0" or "5.0.0+netinv.7.6.0". */
  releaseVersion: string
}

export function reportedVersion(generation: string, advertisedApiVersion: string): ReportedVersion {
  if (generation === 'header') return { apiVersion: PRODUCT_VERSION, releaseVersion: RELEASE_VERSION }
  return { apiVersion: advertisedApiVersion, releaseVersion: advertisedRelease(advertisedApiVersion) }
}

/**
 * A snapshot's `version` (or `initialVersion`) as a generation reports it: one this product wrote
 * (stored as PRODUCT_VERSION) is the generation's `apiVersion`; another product's as it was written.
 */
export function reportedSnapshotVersion(stored: string, generation: string, advertisedApiVersion: string): string {
  return stored === PRODUCT_VERSION ? reportedVersion(generation, advertisedApiVersion).apiVersion : stored
}
