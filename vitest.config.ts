import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${root}/$1` },
      { find: /^server-only$/, replacement: path.join(root, 'tests/support/empty.ts') },
    ],
  },
  test: {
    include: ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'db/**/*.test.ts', 'cli/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    // Every skipped test is listed at the end with its reason (tests/support/requires.ts).
    reporters: ['default', './tests/support/skip-reporter.ts'],
    // Tests talk to one shared server; files run one at a time so timing-sensitive cases
    // (rate limits, quotas) do not fight over the 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
