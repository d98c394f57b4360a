/**
 * Which paths under the inventory's wildcard endpoints exist: `tables/*` and
 * `tables/*\/description` name a table of the catalog (kebab-case, or a v4 camelCase path). A path
 * under them that names no table is no endpoint: 404 for every method (a 405 would say the
 * endpoint exists). The inventory's router uses it; the gateway learns the same tables from the
 * inventory's published document (gateway/upstreams/documents.ts), so that an unknown table is 404
 * before any credential is checked.
 */
import { findTable } from './catalog/index.js'

/** Wildcard pattern → whether what its `*` matched exists. */
export type WildcardPaths = Readonly<Record<string, (rest: string) => boolean>>

export function tableWildcards(find: (path: string) => unknown = findTable): WildcardPaths {
  const exists = (rest: string): boolean => find(rest) !== undefined
  return { 'tables/*': exists, 'tables/*/description': exists }
}

