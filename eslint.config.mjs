// Type-aware lint of the whole project's TypeScript (issue 42, item 5): a promise nobody awaits,
// or one handed where a boolean or a void callback is expected, is how a password check that
// always passed shipped elsewhere (CVE-2026-49467). Run: npm run lint:eslint (and in .ci/run).
// A promise left running on purpose says so with `void` and a comment why.
import i18next from 'eslint-plugin-i18next';
import tseslint from 'typescript-eslint';

/** Every TypeScript file tsconfig.json covers: the server, the pages, the CLI, the scripts and the tests. */
export const TS_FILES = ['**/*.ts', '**/*.tsx'];

/**
 * Pages whose every visible string comes from messages/<locale>.json (issue 40, docs/translations.md):
 * a literal string in their JSX — text, or an attribute a person reads or hears — is an
 * untranslated sentence. A page joins this list once it is translated whole.
 */
export const TRANSLATED_PAGES = [
  'app/page.tsx',
  'app/r/**/*.tsx',
  'app/f/**/*.tsx',
  'app/offline/**/*.tsx',
  'app/not-found.tsx',
  'app/_components/language-picker.tsx',
  'app/cli-login/**/*.tsx',
  // /files, whole: its shell, sign-in, uploads, shares, Settings, File requests and Users.
  'app/files/**/*.tsx',
  'app/_components/error-text.tsx',
  // /htmls, whole: its sign-in, projects, publishing, deploys, domains, token change and audit log.
  'app/htmls/**/*.tsx',
];

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
  {
    files: TRANSLATED_PAGES,
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          // JSX text, strings inside JSX expressions, and the attributes people read or hear.
          mode: 'jsx-only',
          'jsx-attributes': { include: ['alt', 'title', 'placeholder', 'label', 'aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription'] },
          // Not words: punctuation, symbols (emoji included), numbers and spaces; CONSTANT_NAMES.
          words: { exclude: [/^[\p{P}\p{S}\p{N}\s]+$/u, /^[A-Z_-]+$/] },
          callees: { exclude: ['t', 't\\.rich', 't\\.markup', 'format\\w*', 'cn', 'clsx', 'useTranslations', 'getTranslations'] },
        },
      ],
    },
  },
);
