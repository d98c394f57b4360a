/**
 * A new embedded database is unpacked from the template of an empty one (initdb's result, kept
 * once per PGlite version beside the package) instead of running initdb: it takes migrations,
 * keeps its files owner-only and is found as it was at the next open.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import t from 'tap'
import { createPgliteDb } from '../../../src/shared/db/pglite.js'
import { readTemplate, saveTemplate, templateFile } from '../../../src/shared/db/pglite-template.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { migrateIdentity } from '../../../src/gateway/identity/migrations.js'

function capture(): { log: pino.Logger; setups: () => string[] } {
  const lines: string[] = []
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) })
  return { log, setups: () => lines.map((l) => (JSON.parse(l) as { setup?: string }).setup).filter((s): s is string => s !== undefined) }
}

t.test('the template is kept beside the installed PGlite, named by its version', async (t) => {
  const file = templateFile()
  t.ok(file, 'PGlite is installed in a node_modules')
  t.match(file!, /node_modules\/\.cache\/netinv\/pglite-\d+\.\d+\.\d+[^/]*-initdb\.tar\.gz$/)
})

t.test('a template is written whole or not at all', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-template-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'sub', 'template.tar.gz')
  t.equal(readTemplate(file), undefined, 'none yet')
  t.ok(saveTemplate(file, new Uint8Array([1, 2, 3])))
  t.same([...readTemplate(file)!], [1, 2, 3])
  t.same(readdirSync(join(dir, 'sub')), ['template.tar.gz'], 'no part file left')
  t.notOk(saveTemplate(join(file, 'under-a-file'), new Uint8Array([1])), 'an unwritable place is no error')
})

t.test('an empty data directory is unpacked from the template, migrated, and found again', async (t) => {
  // the first empty database of this installation (in memory) runs initdb and keeps the template
  const first = capture()
  const memory = await createPgliteDb({ log: first.log })
  await memory.close()
  t.ok(readTemplate(templateFile()), 'a template is kept')

  const dataDir = join(mkdtempSync(join(tmpdir(), 'netinv-template-db-')), 'pglite')
  t.teardown(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }))
  const made = capture()
  const db = await createPgliteDb({ dataDir, log: made.log })
  t.same(made.setups(), ['template'], 'unpacked, no initdb')
  t.ok((await migrateInventory(db)).length > 0, 'the inventory migrations apply')
  t.ok((await migrateIdentity(db)).length > 0, 'the identity migrations apply')
  await db.query('CREATE TABLE kept (a int)')
  await db.query('INSERT INTO kept VALUES (42)')
  await db.close()
  const modes = readdirSync(dataDir).map((f) => statSync(join(dataDir, f)).mode & 0o077)
  t.ok(modes.every((m) => m === 0), 'owner-only files')

  const again = capture()
  const reopened = await createPgliteDb({ dataDir, log: again.log })
  t.teardown(() => reopened.close())
  t.same(again.setups(), [], 'an existing database is opened as it is')
  t.same((await reopened.query<{ a: number }>('SELECT a FROM kept')).rows, [{ a: 42 }])
  t.same(await migrateInventory(reopened), [], 'nothing left to migrate')
})
