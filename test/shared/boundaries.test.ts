/**
 * The gateway and the inventory share only src/shared: the lint rule of eslint.config.js refuses
 * an import of one from the other (both ways), and no module of either does so today.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ESLint } from 'eslint'
import t from 'tap'

const ROOT = join(import.meta.dirname, '..', '..')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
}

t.test('the lint rule refuses an import across the boundary, both ways', async (t) => {
  const eslint = new ESLint({ cwd: ROOT })
  const cases: Array<[string, string, boolean]> = [
    ['src/gateway/probe.ts', "import { TABLES } from '../inventory/catalog/index.js'\nexport const n = TABLES\n", true],
    ['src/gateway/openapi/probe.ts', "import type { TableDef } from '../../inventory/catalog/index.js'\nexport type T = TableDef\n", true],
    ['src/inventory/probe.ts', "import type { Route } from '../gateway/routes/table.js'\nexport type R = Route\n", true],
    ['src/gateway/probe.ts', "import { ENDPOINTS } from '../shared/manifest.js'\nexport const n = ENDPOINTS\n", false],
  ]
  for (const [file, text, refused] of cases) {
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) })
    const hit = result!.messages.some((m) => m.ruleId === 'no-restricted-imports')
    t.equal(hit, refused, `${file}: ${text.split('\n')[0]}`)
  }
})

t.test('no module of the gateway names the inventory, and none of the inventory names the gateway', async (t) => {
  for (const [dir, other] of [['src/gateway', 'inventory'], ['src/inventory', 'gateway']] as const) {
    const offenders = sources(join(ROOT, dir)).filter((file) => new RegExp(`from '[^']*(^|/)${other}/`).test(readFileSync(file, 'utf8')))
    t.same(offenders.map((f) => relative(ROOT, f)), [], `${dir} imports nothing of src/${other}`)
  }
})
