/**
 * Text a request may carry in JSON that no stored text can hold: U+0000 (PostgreSQL text refuses
 * it) and an unpaired surrogate (U+D800–U+DFFF alone is no character; UTF-8 cannot encode it, so
 * it would be stored as U+FFFD, and what was accepted would not be what is kept). Both can only
 * come through a `\u` escape, so a body whose text has none is not walked at all.
 */
import type { ValidationIssue } from '../errors.js'
import { issuePath } from '../schema/index.js'

const ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** What in `text` cannot be stored, or undefined. */
function unstorable(text: string): string | undefined {
  if (text.includes('\0')) return 'the character U+0000'
  if (LONE_SURROGATE.test(text)) return 'an unpaired surrogate (U+D800–U+DFFF)'
  return undefined
}

/** The problems of every string and key in `value` (parsed from `raw`), with their paths. */
export function unstorableText(raw: string, value: unknown): ValidationIssue[] {
  if (!ESCAPE.test(raw)) return []
  const issues: ValidationIssue[] = []
  // a JSON pointer on the way down, named for the message as the schema validator names paths
  const add = (pointer: string, message: (path: string) => string): void => {
    const path = issuePath(pointer)
    issues.push({ message: message(path), path })
  }
  const walk = (v: unknown, pointer: string): void => {
    if (typeof v === 'string') {
      const what = unstorable(v)
      if (what) add(pointer, (path) => `"${path}" must not contain ${what}`)
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${pointer}/${i}`))
    else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        const what = unstorable(key)
        if (what) add(pointer, (path) => `a key of "${path}" must not contain ${what}`)
        else walk(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      }
    }
  }
  walk(value, '')
  return issues
}
