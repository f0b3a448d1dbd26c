import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper shared with npm start
import { ensureBuilt } from '../../scripts/build-hash.mjs';
import { postgresUrl } from './env';
import { missingReason, requiredServices } from './requires';
import { useRunDir } from './run-dir';
import { migrate, ROOT } from './server';
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
 * Builds if the sources changed and migrates one template database (the embedded one is kept
 * between runs: cachedPgliteTemplate). Each test file then starts
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
  const env: { DATABASE_URL?: string } = {};
  if (postgresUrl()) {
    env.DATABASE_URL = await createTestDatabase('htmls_template');
    template.database = new URL(env.DATABASE_URL).pathname.slice(1);
    migrateTemplate(env);
  } else {
    template.dataDir = cachedPgliteTemplate();
  }
  project.provide('serverTemplate', template);
  return async () => {
    if (env.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
    removeRunDir();
  };
}

function migrateTemplate(env: { DATA_DIR?: string; DATABASE_URL?: string }): void {
  const migrated = migrate(env);
  if (migrated.status !== 0) throw new Error(`migrating the template database failed:\n${migrated.stdout}${migrated.stderr}`);
}

/**
 * The embedded template, migrated once per set of migrations and PGlite version and kept in
 * node_modules/.cache: making it (PGlite's initdb and every migration) took 7 s of a run's start,
 * with every worker waiting. Test files only copy it. Made in a directory of its own and renamed
 * into place, so a run that stops halfway, or two runs at once, never leave half a template.
 */
function cachedPgliteTemplate(): string {
  const h = createHash('sha256');
  const migrations = path.join(ROOT, 'db', 'migrations');
  for (const f of readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(migrations, f);
    if (statSync(file).isFile()) h.update(f).update('\0').update(readFileSync(file)).update('\0');
  }
  h.update(readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  const dir = path.join(ROOT, 'node_modules', '.cache', 'htmls-test', `template-${h.digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(dir, 'pglite'))) return dir;
  mkdirSync(path.dirname(dir), { recursive: true });
  const making = mkdtempSync(`${dir}-making-`);
  migrateTemplate({ DATA_DIR: making });
  try {
    renameSync(making, dir);
  } catch {
    // Another run put its own in place first: the same migrations, the same template.
    rmSync(making, { recursive: true, force: true });
  }
  return dir;
}
