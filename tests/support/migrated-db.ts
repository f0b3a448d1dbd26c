import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { createDb, type DbHandle } from '../../db/client';
import { migratedServiceEnv } from './file-server';
import { dropTestDatabase } from './services';

/**
 * A database of the test file's own, migrated (a copy of the run's template, PGlite or
 * PostgreSQL), for tests of queries without a server: opened before the file's tests, closed and
 * removed after them. The `db` is there once the file's beforeAll hooks ran.
 */
export function useMigratedDb(): { readonly db: DbHandle['db'] } {
  let dbh: DbHandle | undefined;
  let env: Record<string, string | undefined> | undefined;
  beforeAll(async () => {
    env = await migratedServiceEnv();
    dbh = await createDb({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  }, 120_000);
  afterAll(async () => {
    await dbh?.close();
    if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
    if (env?.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
  });
  return {
    get db() {
      if (!dbh) throw new Error('the database opens in beforeAll: use it inside a test or a hook');
      return dbh.db;
    },
  };
}
