// Lint: the recommended rules of ESLint and typescript-eslint, plus a few house rules.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tap/**', '.tools/**', 'helm/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The gateway knows its upstreams only by what they publish (their OpenAPI documents):
    // nothing of src/gateway imports src/inventory, so the two are released and scaled apart.
    files: ['src/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)inventory/', message: 'the gateway imports nothing of the inventory: read what it publishes (src/gateway/upstreams/documents.ts); share code through src/shared/' }] },
      ],
    },
  },
  {
    files: ['src/inventory/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)gateway/', message: 'the inventory imports nothing of the gateway; share code through src/shared/' }] },
      ],
    },
  },
  {
    // a process a test starts dies with the test process: spawnOwned (test/helpers/owned.ts)
    files: ['test/**/*.ts'],
    ignores: ['test/helpers/owned.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:child_process',
              importNames: ['spawn', 'fork', 'exec'],
              message: 'start processes in tests with spawnOwned (test/helpers/owned.ts): they die with the test process',
            },
          ],
        },
      ],
    },
  },
)
