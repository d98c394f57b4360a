/**
 * How a test starts netinv's command line in a process of its own: the build (dist/src/cli.js,
 * what `npm start` runs) when it is current, else the sources through tsx. A clean clone's
 * `npm ci` builds, so CI starts the build and saves the transform at every start; a developer who
 * changed a source and did not rebuild gets the sources, never a stale build.
 */
import { join } from 'node:path'
import { staleReason } from '../../scripts/build-stamp.mjs'
import { ROOT } from './owned.js'

/** Node arguments before the command's own: `[...CLI, 'serve']`. */
export const CLI: readonly string[] = staleReason(ROOT) === undefined ? [join(ROOT, 'dist/src/cli.js')] : ['--import=tsx', join(ROOT, 'src/cli.ts')]
