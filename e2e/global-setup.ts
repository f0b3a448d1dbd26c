// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from '../scripts/build-hash.mjs';
import { freshServiceEnv } from '../tests/support/services';
import { useRunDir } from '../tests/support/run-dir';
import { ROOT, startServer, TEST_ADMIN_TOKEN } from '../tests/support/server';

/** One real server for the whole suite; its URL reaches the tests through the environment. */
export default async function globalSetup() {
  process.chdir(ROOT);
  const removeRunDir = useRunDir('htmls-e2e-');
  ensureBuilt({ quiet: true });
  const server = await startServer(await freshServiceEnv());
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_ADMIN_TOKEN = TEST_ADMIN_TOKEN;
  return async () => {
    await server.stop();
    removeRunDir();
  };
}
