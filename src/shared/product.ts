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
