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
