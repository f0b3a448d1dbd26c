import 'server-only';
import { randomBytes } from 'node:crypto';
import { createDb, type Db, type DbHandle } from '@/db/client';
import { applyMigrations, migrationsApplied } from '@/db/migrate';
import { getOrCreateSetting, SETTING } from '@/db/queries/settings';
import { getEnv, type Env } from './env';
import { AppError } from './errors';
import { createStorage } from './storage';
import type { CopyProbeResult, StorageDriver } from './storage/types';

export interface Runtime {
  env: Env;
  dbh: DbHandle;
  db: Db;
  storage: StorageDriver;
  /** Set once migrations are seen applied; rechecked at most once a second until then. */
  migrated: boolean;
  migrationsCheckedAt: number;
  serverSecret?: string;
  /** The store's answer to the presigned-copy probe (lib/shares/direct-uploads.ts). */
  copyProbe?: { at: number; result: Promise<CopyProbeResult>; settled?: CopyProbeResult };
}

/** The process's runtime: PGlite must be opened only once (lib/ is loaded once: lib/http/next-link.ts). */
const shared: { runtime?: Promise<Runtime> } = {};

export function getRuntime(): Promise<Runtime> {
  return (shared.runtime ??= createRuntime(getEnv()));
}

async function createRuntime(env: Env): Promise<Runtime> {
  const dbh = await createDb({ url: env.databaseUrl, dataDir: env.dataDir });
  if (env.migrateOnStart) await applyMigrations(dbh, env.databaseUrl);
  const rt: Runtime = {
    env,
    dbh,
    db: dbh.db,
    storage: await createStorage(env),
    migrated: false,
    migrationsCheckedAt: 0,
  };
  rt.migrated = await migrationsApplied(dbh).catch(() => false);
  rt.migrationsCheckedAt = Date.now();
  return rt;
}

/** Throws 503 migrations_pending until the schema is current. */
export async function assertMigrated(rt: Runtime): Promise<void> {
  if (rt.migrated) return;
  if (Date.now() - rt.migrationsCheckedAt > 1000) {
    rt.migrationsCheckedAt = Date.now();
    rt.migrated = await migrationsApplied(rt.dbh);
  }
  if (!rt.migrated) {
    throw new AppError('migrations_pending', 'Database migrations have not been applied; run npm run db:migrate');
  }
}

/** SERVER_SECRET, else one generated once and kept in the database for every instance. */
export async function getServerSecret(rt: Runtime): Promise<string> {
  if (rt.serverSecret) return rt.serverSecret;
  rt.serverSecret =
    rt.env.serverSecret ?? (await getOrCreateSetting(rt.db, SETTING.serverSecret, randomBytes(32).toString('base64url')));
  return rt.serverSecret;
}

export async function closeRuntime(): Promise<void> {
  const p = shared.runtime;
  if (!p) return;
  shared.runtime = undefined;
  const rt = await p;
  rt.storage.close();
  await rt.dbh.close();
}
