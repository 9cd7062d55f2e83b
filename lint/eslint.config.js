/**
 * The whole tree's lint rules (run from the root: `npm run lint`, zero warnings allowed).
 * This file lives in the lint workspace because typescript-eslint needs TypeScript's JavaScript
 * API, which the repository's TypeScript 7 does not ship: the workspace carries TypeScript 6 for it.
 * The root eslint.config.js only re-exports this one.
 */
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const repoRoot = new URL('..', import.meta.url).pathname;

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.turbo/**', '**/coverage/**', 'db/migrations/**', '.data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      // One TypeScript program for every Node package (lint/tsconfig.typed.json; a new package's
      // folders go there: npm test's typecheck of the Node packages is this program too) and one
      // for the web (below). With a program per package (projectService)
      // api and worker, which import db and shared, loaded and bound them again, drizzle's types
      // included: 108 s of CPU and 3.0 GB for the whole tree, now 86 s and 2.3 GB (docs/benchmarks.md).
      parserOptions: { project: 'lint/tsconfig.typed.json', tsconfigRootDir: repoRoot },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits is a write that may land after its transaction, or an error nobody sees.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests, their helpers, benchmarks and scripts read JSON bodies of any shape.
    files: ['**/test/**', '**/e2e/**', '**/testing/**', '**/bench/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { project: 'web/tsconfig.json', tsconfigRootDir: repoRoot } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Files outside every package's tsconfig (scripts, configs, plain JavaScript, the bot example
    // served to players): linted without type information.
    files: ['**/*.{js,mjs,cjs}', '**/scripts/**', '*.config.ts', 'web/public/**'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
