import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;
/**
 * Two tiers: `npm test` runs everything that needs no external service in minutes; the slow
 * tier (`npm run test:slow`: files named *.slow.test.ts, gigabytes hashed or written) runs once
 * in CI.
 */
const slow = process.env.HTMLS_TEST_TIER === 'slow';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${root}/$1` },
      { find: /^server-only$/, replacement: path.join(root, 'tests/support/empty.ts') },
    ],
  },
  test: {
    include: slow ? ['lib/**/*.slow.test.ts', 'tests/**/*.slow.test.ts'] : ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'db/**/*.test.ts', 'cli/**/*.test.ts'],
    exclude: slow ? ['**/node_modules/**'] : ['**/node_modules/**', '**/*.slow.test.ts'],
    // Both tiers: the slow tier's 1 GiB curl upload (tests/one-request-upload.slow.test.ts) runs
    // the server as every test file does, on a copy of the migrated template.
    globalSetup: ['tests/support/global-setup.ts'],
    // The compiled server a test file runs in its own process (tests/support/in-process.ts) is
    // loaded by Node, as in production, not transformed by Vite.
    server: { deps: { external: [/\/\.next\//] } },
    // Every skipped test is listed at the end with its reason (tests/support/requires.ts).
    reporters: ['default', './tests/support/skip-reporter.ts'],
    // The in-process server's console shows only beside a test that failed.
    silent: 'passed-only',
    // A process per file (the forks pool isolates files): each file's server, caches and timers
    // are its own (tests/support/file-server.ts). Two files per core: much of a file's time is
    // spent waiting (on its child servers' boots, timeouts it proves, retries it waits out), and
    // one file per core left the cores idle a third of the run — the same tree, back to back on
    // a loaded 2-core machine, took 643 s with 2 files at once and 421 s with 4 (every test
    // passed in both; neither built). With PostgreSQL and S3 (DATABASE_URL, S3_ENDPOINT) the database and the
    // S3 server share those cores, and the slow tier's files each hash or write gigabytes: one
    // file per core there.
    pool: 'forks',
    // Each file's server runs PGlite (PostgreSQL compiled to WebAssembly) in the file's process.
    // V8 compiles WebAssembly twice: quickly (Liftoff), then again optimised (TurboFan) in the
    // background — about a second of CPU per process that a test file's few hundred queries never
    // earn back (300 small queries after opening: 1.7–2.0 s of CPU with both tiers, 0.9 s with
    // Liftoff only). The same code, compiled once: production keeps both tiers.
    execArgv: ['--liftoff-only'],
    fileParallelism: true,
    maxWorkers: Math.max(1, os.availableParallelism() * (slow || process.env.DATABASE_URL || process.env.S3_ENDPOINT ? 1 : 2)),
    // A hang detector, not a deadline: tests that boot child servers (SIGKILL and restart, two
    // instances) took over 60 s beside two CPU hogs and a CI run on a 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
