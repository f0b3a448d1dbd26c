// `npm run db:migrate`: apply the committed migrations to DATABASE_URL, or to the PGlite
// database under DATA_DIR when no URL is set.
import { createDb } from '../db/client';
import { applyMigrations, migrationsApplied } from '../db/migrate';
import { getEnv } from '../lib/env';

const env = getEnv();
const handle = await createDb({ url: env.databaseUrl, dataDir: env.dataDir });
try {
  await applyMigrations(handle, env.databaseUrl);
  console.log(`migrations applied: ${await migrationsApplied(handle)}`);
} finally {
  await handle.close();
}
