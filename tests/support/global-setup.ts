import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from '../../scripts/build-hash.mjs';
import { missingReason, requiredServices } from './requires';
import { dropTestDatabase, freshServiceEnv } from './services';
import { ROOT, startServer, TEST_ADMIN_TOKEN } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The hosted listener of the shared server: /p/ lives there. */
    hostedUrl: string;
    adminToken: string;
    serverEnv: Record<string, string | undefined>;
    dataDir: string;
  }
}

/** Builds if the sources changed, then starts one real server on fresh database and store. */
export default async function setup(project: TestProject) {
  process.chdir(ROOT);
  // HTMLS_REQUIRE=postgres,s3: fail the run now if this configuration is not the one asked for.
  for (const s of requiredServices()) missingReason(s);
  ensureBuilt({ quiet: true });
  const env = await freshServiceEnv();
  const server = await startServer(env);
  project.provide('baseUrl', server.url);
  project.provide('hostedUrl', server.hostedUrl!);
  project.provide('adminToken', TEST_ADMIN_TOKEN);
  project.provide('serverEnv', env);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
    if (env.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
  };
}
