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
    // Each file starts its own server on a copy of a migrated database, with a store of its own
    // (tests/support/file-server.ts), so files run in parallel. Three at a time on 2 cores:
    // much of a file's time is spent waiting (timeouts, janitor intervals, child processes).
    fileParallelism: true,
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
