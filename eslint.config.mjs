// Type-aware lint of the whole project's TypeScript (issue 42, item 5): a promise nobody awaits,
// or one handed where a boolean or a void callback is expected, is how a password check that
// always passed shipped elsewhere (CVE-2026-49467). Run: npm run lint:promises (and in .ci/run).
// A promise left running on purpose says so with `void` and a comment why.
import tseslint from 'typescript-eslint';

/** Every TypeScript file tsconfig.json covers: the server, the pages, the CLI, the scripts and the tests. */
export const TS_FILES = ['**/*.ts', '**/*.tsx'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.next/**', 'dist/**', 'data/**', '.tmp/**', 'e2e/fixtures/**', 'packages/*/dist/**', 'next-env.d.ts'] },
  {
    files: TS_FILES,
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
