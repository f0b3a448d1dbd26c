import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from '../scripts/build-hash.mjs';
import { freshServiceEnv } from '../tests/support/services';
import { ROOT, startServer, TEST_ADMIN_TOKEN } from '../tests/support/server';

/** One real server for the whole suite; its URL reaches the tests through the environment. */
export default async function globalSetup() {
  process.chdir(ROOT);
  // The run's temporary directories (the server's data, the files tests pick) under one, which
  // goes when the run ends (the workers inherit TMPDIR).
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'htmls-e2e-'));
  process.env.TMPDIR = runDir;
  ensureBuilt({ quiet: true });
  const server = await startServer(await freshServiceEnv());
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_ADMIN_TOKEN = TEST_ADMIN_TOKEN;
  return async () => {
    await server.stop();
    // A server a timed-out test left running may still write there: retried, and never a failure.
    try {
      rmSync(runDir, { recursive: true, force: true, maxRetries: 5 });
    } catch (e) {
      console.warn(`could not remove ${runDir}: ${(e as Error).message}`);
    }
  };
}
