#!/usr/bin/env node
/**
 * Build once, start fast. `npm start` runs `node scripts/built.mjs` first: it compares the build
 * stamp (dist/.build-stamp, written by the last step of `npm run build`) with the newest
 * modification time of the build's inputs (src/, web/ when it exists, package.json,
 * package-lock.json, the tsconfig files) and runs `npm run build` only when the stamp is missing or
 * older, saying why. A built tree costs one walk of the sources (a few milliseconds).
 *
 *   node scripts/built.mjs           build when needed (cwd: the package root, as npm runs scripts)
 *   node scripts/built.mjs --stamp   the last step of `npm run build`: keep the template of an empty
 *                                    embedded database when there is none, write the stamp
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import { STAMP, staleReason } from './build-stamp.mjs'

if (process.argv[2] === '--stamp') {
  await keepDatabaseTemplate()
  mkdirSync('dist', { recursive: true })
  writeFileSync(STAMP, `built ${new Date().toISOString()}\n`)
  process.exit(0)
}

/**
 * The first empty embedded database of an installation runs initdb and keeps the result as the
 * template later ones are unpacked from (src/shared/db/pglite-template.ts): made here, at the
 * build, so that the first start is quick too.
 */
async function keepDatabaseTemplate() {
  const compiled = join(process.cwd(), 'dist/src/shared/db')
  if (!existsSync(join(compiled, 'pglite.js'))) return
  const { templateFile } = await import(pathToFileURL(join(compiled, 'pglite-template.js')).href)
  const file = templateFile()
  if (!file || existsSync(file)) return
  const { createPgliteDb } = await import(pathToFileURL(join(compiled, 'pglite.js')).href)
  const db = await createPgliteDb()
  await db.close()
}

const reason = staleReason()
if (reason === undefined) process.exit(0)
process.stderr.write(`netinv: building (${reason}); later starts skip this until the sources change\n`)
const npm = process.env.npm_execpath
const run = npm
  ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], { stdio: 'inherit' })
  : spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
if (run.error) {
  process.stderr.write(`netinv: could not run the build: ${run.error.message}\n`)
  process.exit(1)
}
process.exit(run.status ?? 1)
