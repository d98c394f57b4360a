/**
 * Filters of interface requests for the tests of value counts (`catalog/value-counts.ts`,
 * `query/kept-values.ts`): those a count answers from value counts (one counted column, every
 * operator a value filter has, trees of them) and those it must count by testing rows, each with
 * the SQL a user would write over the rows for the same count.
 */
export type Filters = Record<string, unknown>

/** Filters each counted by the value counts (one column), with the SQL a user would write over the rows for the same count. */
export const COUNTED: Array<{ filters: Filters; where: string }> = [
  { filters: { intName: ['like', 'gi1/0/1'] }, where: "int_name ILIKE '%gi1/0/1%'" },
  { filters: { intName: ['notlike', 'gi1/0/1'] }, where: "NOT coalesce(int_name ILIKE '%gi1/0/1%', false)" },
  { filters: { intName: ['reg', '^Gi1/0/[0-9]$'] }, where: "int_name ~ '^Gi1/0/[0-9]$'" },
  { filters: { intName: ['nireg', '^gi'] }, where: "NOT coalesce(int_name ~* '^gi', false)" },
  { filters: { siteName: ['ieq', 'paris-01'] }, where: "lower(site_name) = 'paris-01'" },
  { filters: { siteName: ['eq', 'PARIS-01'] }, where: "site_name = 'PARIS-01'" },
  { filters: { l1: ['eq', 'down'] }, where: "l1 = 'down'" },
  { filters: { l1: ['neq', 'up'] }, where: "NOT coalesce(l1 = 'up', false)" },
  { filters: { l2: ['eq', null] }, where: 'l2 IS NULL' },
  { filters: { dscr: ['empty', true] }, where: "(dscr IS NULL OR dscr = '')" },
  { filters: { dscr: ['empty', false] }, where: "NOT (dscr IS NULL OR dscr = '')" },
  { filters: { siteName: ['nieq', 'paris-01'] }, where: "NOT coalesce(lower(site_name) = 'paris-01', false)" },
  { filters: { hostname: ['ireg', '01$'] }, where: "hostname ~* '01$'" },
  { filters: { or: [{ intName: ['like', 'gi1/0/1'] }, { intName: ['like', 'vlan'] }] }, where: "(int_name ILIKE '%gi1/0/1%' OR int_name ILIKE '%vlan%')" },
  { filters: { and: [{ intName: ['like', 'gi'] }, { or: [{ intName: ['like', '/1'] }, { intName: ['eq', 'Loopback0'] }] }] }, where: "int_name ILIKE '%gi%' AND (int_name ILIKE '%/1%' OR int_name = 'Loopback0')" },
]

/** Filters the value counts cannot answer: the scan counts them. */
export const SCANNED: Array<{ filters: Filters; where: string }> = [
  { filters: { intName: ['like', 'gi'], l1: ['eq', 'up'] }, where: "int_name ILIKE '%gi%' AND l1 = 'up'" },
  { filters: { media: ['eq', 'copper'] }, where: "media = 'copper'" },
  { filters: { intName: ['like', 'gi'], nameOriginal: ['like', 'gi'] }, where: "int_name ILIKE '%gi%' AND name_original ILIKE '%gi%'" },
]

