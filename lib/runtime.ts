import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createDb, type Db, type DbHandle } from '@/db/client';
import { applyMigrations, migrationsApplied } from '@/db/migrate';
import { getOrCreateSetting, SETTING } from '@/db/queries/settings';
import { getEnv, resolveEnvWith, type Env } from './env';
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
  /** The service's hosted listener's bound port (lib/hosting/hosted-port.ts). */
  hostedPort?: number | null;
  /** The service's own in-memory state, one slot per module (perRuntime below). */
  state: Record<symbol, unknown>;
}

/**
 * What the listener knows of a request that Next's route handlers need (lib/http/request-context.ts):
 * the client's address and the runtime of the service whose listener took it.
 */
export interface RequestContext {
  ip: string;
  rt: Runtime;
}

const contexts = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (Next's handler of one request) with the request's context. */
export const withRequestContext = <T>(ctx: RequestContext, fn: () => T): T => contexts.run(ctx, fn);

/**
 * Runs `fn` (a background task of `rt`'s service: a janitor run, a worker's step) as the
 * service's: getEnv() and getRuntime() in it give `rt`'s, not the process's default.
 */
export const inService = <T>(rt: Runtime, fn: () => T): T => contexts.run({ ip: 'unknown', rt }, fn);

/** The context of the request being handled, if it entered through server.ts's listener. */
export const requestContext = (): RequestContext | undefined => contexts.getStore();

/**
 * The process's default runtime: its first service's (server.ts's createService), or one opened
 * on getEnv() by the first caller. A PGlite directory must be opened only once (lib/ is loaded
 * once: lib/http/next-link.ts).
 */
const shared: { runtime?: Promise<Runtime> } = {};

// getEnv() in a request of a service gives that service's settings.
resolveEnvWith(() => requestContext()?.rt.env);

/**
 * The runtime of the service handling this request: the one its listener put in the request's
 * context (Next's route handlers and pages), else the process's default. Code the listener calls
 * itself is handed its service's runtime (FastRequest.rt) and does not ask.
 */
export function getRuntime(): Runtime | Promise<Runtime> {
  return requestContext()?.rt ?? (shared.runtime ??= openRuntime(getEnv()));
}

/**
 * A module's state of one service, kept with its runtime rather than in the module: two services
 * in one process each have their own. `const writtenOf = perRuntime(() => new Map())`, then
 * `writtenOf(rt)`.
 */
export function perRuntime<T>(init: (rt: Runtime) => T): (rt: Runtime) => T {
  const key = Symbol();
  return (rt) => (key in rt.state ? rt.state[key] : (rt.state[key] = init(rt))) as T;
}

/** Makes `rt` the process's default (its first service's): what a request outside any service's context gets. */
export function setDefaultRuntime(rt: Runtime): void {
  shared.runtime = Promise.resolve(rt);
}

/** A new runtime on `env`: its own database connection, store and state (server.ts's createService). */
export async function openRuntime(env: Env): Promise<Runtime> {
  const dbh = await createDb({ url: env.databaseUrl, dataDir: env.dataDir });
  if (env.migrateOnStart) await applyMigrations(dbh, env.databaseUrl);
  const rt: Runtime = {
    env,
    dbh,
    db: dbh.db,
    storage: await createStorage(env),
    migrated: false,
    migrationsCheckedAt: 0,
    state: {},
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

/** Closes `rt`'s store and database; the default runtime when it is `rt` is opened afresh by the next caller. */
export async function closeRuntime(rt: Runtime): Promise<void> {
  if (shared.runtime && (await shared.runtime) === rt) shared.runtime = undefined;
  rt.storage.close();
  await rt.dbh.close();
}
