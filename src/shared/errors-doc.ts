/** docs/errors.md, rendered from the error table; a test fails when the file is stale. */
import { ERRORS } from './errors.js'

export const ERRORS_DOC_PATH = 'docs/errors.md'

export function renderErrorsDoc(): string {
  const rows = Object.entries(ERRORS)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, entry]) => `| ${entry.status} | \`${code}\` | ${entry.message}${'fixed' in entry ? ' (always)' : ''} |`)
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
    'A message marked "(always)" is fixed by the specification and never changes: `API_NOT_FOUND` is',
    'always `Requested Resource Not Found`. What was not found (which snapshot, which job, which table)',
    'is in an additional field, `detail`, when the service can say it:',
    '`{"code": "API_NOT_FOUND", "message": "Requested Resource Not Found", "detail": "Job \\"42\\" not found"}`.',
    'Clients must ignore fields they do not know.',
    '',
    '| Status | Code | Default message |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}
