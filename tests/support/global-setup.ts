import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from '../../scripts/build-hash.mjs';
import { postgresUrl } from './env';
import { missingReason, requiredServices } from './requires';
import { useRunDir } from './run-dir';
import { migrate, ROOT, tempDir } from './server';
import { createTestDatabase, dropTestDatabase } from './services';

/** What each file's server starts from: a database with every migration applied. */
export interface ServerTemplate {
  /** PostgreSQL: the migrated database each file's database is created from. */
  database?: string;
  /** Embedded default: a data directory whose PGlite database is migrated, copied per file. */
  dataDir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverTemplate: ServerTemplate;
  }
}

/**
 * Builds if the sources changed and migrates one template database. Each test file then starts
 * its own server on its own copy of it and its own store (tests/support/file-server.ts): a copy
 * boots in under a second, where a fresh PGlite spends two on initdb and migrations.
 */
export default async function setup(project: TestProject) {
  process.chdir(ROOT);
  const removeRunDir = useRunDir('htmls-run-');
  // HTMLS_REQUIRE=postgres,s3: fail the run now if this configuration is not the one asked for.
  for (const s of requiredServices()) missingReason(s);
  ensureBuilt({ quiet: true });
  const template: ServerTemplate = {};
  const env: { DATA_DIR?: string; DATABASE_URL?: string } = {};
  if (postgresUrl()) {
    env.DATABASE_URL = await createTestDatabase('htmls_template');
    template.database = new URL(env.DATABASE_URL).pathname.slice(1);
  } else {
    env.DATA_DIR = template.dataDir = tempDir('htmls-template-');
  }
  const migrated = migrate(env);
  if (migrated.status !== 0) throw new Error(`migrating the template database failed:\n${migrated.stdout}${migrated.stderr}`);
  project.provide('serverTemplate', template);
  return async () => {
    if (env.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
    removeRunDir();
  };
}
