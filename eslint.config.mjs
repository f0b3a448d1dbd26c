// Type-aware lint of the sign-in code (issue 42, item 5): a promise nobody awaits, or one handed
// where a boolean or a void callback is expected, is how a password check that always passed
// shipped elsewhere (CVE-2026-49467). Run: npm run lint:auth (and in .ci/run).
import tseslint from 'typescript-eslint';

export const AUTH_FILES = ['lib/auth/**/*.ts', 'lib/http/api/auth.ts', 'lib/http/api/auth/**/*.ts', 'lib/http/api/users/**/*.ts', 'lib/users/**/*.ts', 'db/queries/sessions.ts', 'db/queries/second-factor.ts', 'db/queries/passkeys.ts', 'cli/commands/login.ts', 'cli/commands/logout.ts'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.next/**', 'dist/**'] },
  {
    files: AUTH_FILES,
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
