/**
 * Every answer an end-to-end test receives through `call` is checked against the gateway's own
 * OpenAPI document of the address generation asked (`/api/openapi.json`, `/api/v1/…`,
 * `/api/v6.0/…`): the status must be documented for the path and method, the headers the
 * document requires must be there and every documented header present must fit its schema, the
 * media type must be documented and a JSON body must fit its schema. Anything else throws, so an
 * undocumented answer fails the test that got it.
 *
 * Paths the document does not have (a typo, a hostile path) must get an error in the documented
 * error shape; a generation whose document is itself gone (past an enforced sunset) only 410.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'

type Json = Record<string, unknown>

interface Loaded {
  doc: Json
  ajv: Ajv2020
  /** Document paths as matchers, literal segments before parameters. */
  paths: Array<{ template: string; parts: string[] }>
}

const cache = new Map<string, Promise<Loaded | null>>()

const GENERATION = /^\/api\/(v1\/|v\d{1,3}\.\d{1,3}\/)?/

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')
}

async function load(base: string, prefix: string): Promise<Loaded | null> {
  const res = await fetch(`${base}${prefix}openapi.json`)
  if (res.status === 410) return null
  if (res.status !== 200) throw new Error(`${prefix}openapi.json: ${res.status} ${await res.text()}`)
  const doc = (await res.json()) as Json
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false })
  ajv.addSchema(doc, 'openapi')
  const paths = Object.keys(doc.paths as Json)
    .map((template) => ({ template, parts: template.slice(1).split('/') }))
    .sort((a, b) => a.parts.filter((p) => p.startsWith('{')).length - b.parts.filter((p) => p.startsWith('{')).length)
  return { doc, ajv, paths }
}

function documentOf(base: string, prefix: string, fresh = false): Promise<Loaded | null> {
  const key = `${base} ${prefix}`
  let p = cache.get(key)
  if (!p || fresh) {
    p = load(base, prefix)
    cache.set(key, p)
    p.catch(() => cache.delete(key))
  }
  return p
}

function matchPath(loaded: Loaded, rest: string): string | undefined {
  // the gateway takes a trailing slash as none (the diagram clients post to `graphs/`)
  const segments = rest.replace(/\/$/, '').split('/')
  for (const { template, parts } of loaded.paths) {
    if (parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === segments[i])) return template
  }
  return undefined
}

function resolve(doc: Json, value: Json): Json {
  const ref = value.$ref
  if (typeof ref !== 'string') return value
  return ref.slice(2).split('/').reduce<Json>((node, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, doc)
}

function validate(loaded: Loaded, schemaPointer: string, value: unknown, what: string): void {
  const check = loaded.ajv.getSchema(`openapi#${schemaPointer}`)
  if (!check) throw new Error(`${what}: no schema at ${schemaPointer}`)
  if (!check(value)) throw new Error(`${what}: does not fit the document (${schemaPointer}): ${JSON.stringify(check.errors?.slice(0, 3))}`)
}

export interface Answer {
  status: number
  headers: Headers
  text: string
}

/** The problem of `answer` to `method path` against the document; undefined when it conforms. */
async function problem(loaded: Loaded, method: string, rest: string, answer: Answer): Promise<string | undefined> {
  const what = `${method} ${rest} → ${answer.status}`
  const template = matchPath(loaded, rest)
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim()
  if (template === undefined) {
    if (answer.status < 400) return `${what}: a path the document does not have answered ${answer.status}`
    if (type === 'application/json' && answer.text) validate(loaded, answer.status === 410 ? '/components/schemas/VersionGone' : '/components/schemas/Error', JSON.parse(answer.text), what)
    return undefined
  }
  const item = (loaded.doc.paths as Json)[template] as Json
  const op = item[method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()] as Json | undefined
  if (!op) return answer.status === 405 ? undefined : `${what}: method not documented for ${template} (only 405 may answer)`
  const responses = op.responses as Json
  const key = String(answer.status)
  const range = `${key[0]}XX`
  const responseKey = key in responses ? key : range in responses ? range : undefined
  if (responseKey === undefined) return `${what}: status not documented for ${method} ${template} (documented: ${Object.keys(responses).join(', ')})`
  const raw = responses[responseKey] as Json
  const response = resolve(loaded.doc, raw)
  const responsePointer = typeof raw.$ref === 'string' ? raw.$ref.slice(1) : pointer('', 'paths', template, method.toLowerCase(), 'responses', responseKey)
  for (const [name, h] of Object.entries((response.headers as Json | undefined) ?? {})) {
    const header = resolve(loaded.doc, h as Json)
    const value = answer.headers.get(name)
    if (value === null) {
      if (header.required === true) return `${what}: header ${name} is required by the document`
      continue
    }
    const headerPointer = typeof (h as Json).$ref === 'string' ? `${((h as Json).$ref as string).slice(1)}/schema` : `${responsePointer}/headers/${pointer(name)}/schema`
    validate(loaded, headerPointer, value, `${what}: header ${name}`)
  }
  const content = response.content as Json | undefined
  if (!content) return answer.text === '' ? undefined : `${what}: a body where the document has none`
  if (answer.text === '' && (answer.status === 204 || method === 'HEAD')) return undefined
  const mediaKey = type in content ? type : '*/*' in content ? '*/*' : undefined
  if (mediaKey === undefined) return `${what}: media type ${type || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`
  if (mediaKey === 'application/json') validate(loaded, `${responsePointer}/content/${pointer(mediaKey)}/schema`, JSON.parse(answer.text), `${what}: body`)
  return undefined
}

/** Throws unless `answer` to `method path` (path with query) is what the document promises. */
export async function checkAnswer(base: string, method: string, path: string, answer: Answer): Promise<void> {
  const pathOnly = path.split('?')[0]!
  const generation = GENERATION.exec(pathOnly)
  if (!generation) return // not the API (/healthz, /readyz)
  const prefix = generation[0]
  const rest = pathOnly.slice(prefix.length)
  if (rest === 'openapi.json' || rest.startsWith('docs')) return
  let loaded = await documentOf(base, prefix)
  if (loaded === null) {
    // gone, or a path no generation has (the route stage answers 404 before the version stage)
    if (answer.status === 410 || (answer.status === 404 && (answer.text === '' ? method === 'HEAD' : (JSON.parse(answer.text) as { code?: unknown }).code === 'API_NOT_FOUND'))) return
    throw new Error(`${method} ${path} → ${answer.status}: the document of ${prefix} is gone (410), so must every answer under it be`)
  }
  let found = await problem(loaded, method, rest, answer)
  if (found !== undefined) {
    // The configuration may have changed since the document was read: read it again once.
    loaded = await documentOf(base, prefix, true)
    found = loaded === null ? (answer.status === 410 ? undefined : found) : await problem(loaded, method, rest, answer)
  }
  if (found !== undefined) throw new Error(`undocumented answer: ${found}\n${answer.text.slice(0, 500)}`)
}
