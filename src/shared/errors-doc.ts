/** docs/errors.md, rendered from the error table; a test fails when the file is stale. */
import { ERRORS } from './errors.js'

export const ERRORS_DOC_PATH = 'docs/errors.md'

export function renderErrorsDoc(): string {
  const rows = Object.entries(ERRORS)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`)
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/shared/errors.ts by `npm run docs`; do not edit by hand. -->',
    '',
    'Every error response is a JSON object `{"code", "message"}`. Validation errors (422) also carry',
    '`errors: [{"message"}]`; an invalid column reads `"columns[0]" must be one of [a, b, c]` so that',
    'clients can discover the columns of a table. Version errors (410) use the body of the',
    'specification instead: `{"message", "release_version", "api_version"}`. `DELETE auth/token`',
    'answers its authentication failures as `text/plain` with the body `Unauthorized`, as the',
    'specification shows. Branch on `code`, not on `message`.',
    '',
    '| Status | Code | Default message |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}
