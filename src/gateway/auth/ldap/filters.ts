/**
 * LDAP search filters built from typed input: every value is escaped as RFC 4515 asks (`*`, `(`,
 * `)`, `\` and NUL as `\XX`), so `*)(uid=*))(|(uid=*` is a username that matches nobody rather
 * than a filter that matches everybody.
 */

const SPECIAL = new Set(['*', '(', ')', '\\', '\u0000'])

export function escapeFilterValue(value: string): string {
  let out = ''
  for (const c of value) out += SPECIAL.has(c) ? `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c
  return out
}

/** `template` with each `{name}` replaced by its escaped value. */
export function fillFilter(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => {
    const value = values[name]
    return value === undefined ? whole : escapeFilterValue(value)
  })
}

/** The value of the first RDN of a DN (`cn=ops,ou=groups,...` → `ops`), for matching groups by name. */
export function firstRdnValue(dn: string): string {
  const m = /^[^=]+=((?:\\.|[^,\\])*)/.exec(dn)
  return (m?.[1] ?? dn).replace(/\\(.)/g, '$1').trim()
}

/** A DN compared without case and without the spaces around its separators. */
export function normalizeDn(dn: string): string {
  return dn
    .split(/(?<!\\),/)
    .map((rdn) => rdn.trim().replace(/\s*=\s*/, '='))
    .join(',')
    .toLowerCase()
}
