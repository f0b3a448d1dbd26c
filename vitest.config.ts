import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;
/**
 * Two tiers. `npm test` is the developers' loop: every test whose server runs inside the test's
 * own process (tests/support/file-server.ts), in about 2.5 minutes on an idle 2-core machine. The
 * slow tier (`npm run test:slow`: files named *.slow.test.ts) runs in CI on both configurations:
 * tests that start our programs as processes (the server as a child or `npm start`: signals,
 * exit codes, kills and restarts, boot, two instances; the CLI as a program) and those that
 * hash or write gigabytes. tests/support/server.ts (inSlowTier) keeps a process out of the loop.
 */
const slow = process.env.HTMLS_TEST_TIER === 'slow';

export default defineConfig({
  // Test files share a process (isolate: false below), and a file's server sets NODE_ENV to
  // production as `npm start` does: React's development JSX runtime then exports no jsxDEV for a
  // later file's components. Components are compiled for React's production JSX runtime, as
  // Next compiles them for `npm start`.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${root}/$1` },
      { find: /^server-only$/, replacement: path.join(root, 'tests/support/empty.ts') },
    ],
  },
  test: {
    include: slow ? ['lib/**/*.slow.test.ts', 'tests/**/*.slow.test.ts'] : ['tests/**/*.test.ts', 'lib/**/*.test.ts', 'db/**/*.test.ts', 'cli/**/*.test.ts'],
    exclude: slow ? ['**/node_modules/**'] : ['**/node_modules/**', '**/*.slow.test.ts'],
    // Both tiers: the slow tier's child servers start, as every file's server does, on a copy of
    // the migrated template.
    globalSetup: ['tests/support/global-setup.ts'],
    // The compiled server a test file runs in its own process (tests/support/in-process.ts) is
    // loaded by Node, as in production, not transformed by Vite.
    server: { deps: { external: [/\/\.next\//] } },
    // Every skipped test is listed at the end with its reason (tests/support/requires.ts).
    reporters: ['default', './tests/support/skip-reporter.ts'],
    // The in-process server's console shows only beside a test that failed.
    silent: 'passed-only',
    // Test files run in worker processes (forks), two per core, and a worker runs one file after
    // another without a fresh process for each (isolate: false): each file still has a server of
    // its own (tests/support/file-server.ts: its own database, store, caches, rate limits and
    // timers — createService keeps all of them per service), but a process's start-up (Node's own
    // modules, the compiled server, vitest's runner) is paid once per worker instead of once per
    // file. Measured on an idle 2-core VM, the same tree back to back: 363 s wall / 689 s of CPU
    // with a process per file, 284 s / 531 s without (docs/testing.md). Nothing a file starts may
    // outlive it, and no file may rely on being its process's first. Two files per core: much of
    // a file's time is spent waiting (child servers' boots, timeouts it proves, retries it waits
    // out). With PostgreSQL and S3 (DATABASE_URL, S3_ENDPOINT) the database and the S3 server
    // share those cores: one file per core there.
    pool: 'forks',
    // Each file's server runs PGlite (PostgreSQL compiled to WebAssembly) in the file's process.
    // V8 compiles WebAssembly twice: quickly (Liftoff), then again optimised (TurboFan) in the
    // background — about a second of CPU per process that a test file's few hundred queries never
    // earn back (300 small queries after opening: 1.7–2.0 s of CPU with both tiers, 0.9 s with
    // Liftoff only). The same code, compiled once: production keeps both tiers.
    execArgv: ['--liftoff-only'],
    fileParallelism: true,
    isolate: false,
    maxWorkers: Math.max(1, os.availableParallelism() * (process.env.DATABASE_URL || process.env.S3_ENDPOINT ? 1 : 2)),
    // A hang detector, not a deadline: tests that boot child servers (SIGKILL and restart, two
    // instances) took over 60 s beside two CPU hogs and a CI run on a 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
