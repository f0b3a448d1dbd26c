import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { startInProcess, type InProcessServer, type ServiceShape } from './in-process';
import { tempDir } from './server';
import { dropTestDatabase, freshServiceEnv } from './services';

/**
 * One real server per test file, on a database and a bucket (or data directory) of its own,
 * so files run in parallel and no file sees another's users, shares, rate-limit counters or
 * settings. It runs inside the test file's own process (tests/support/in-process.ts): a file
 * that needs a server as a process of its own (signals, a second instance, boot) starts it
 * with startServer(). A file that talks to "the server" calls `useFileServer()` once at its top; the
 * helpers below (and `call()` without `base`) then mean that file's server. Its database is a
 * copy of the run's migrated template (tests/support/global-setup.ts).
 */
interface FileServer {
  server: InProcessServer;
  /** The database, storage and data-dir settings the server was started with (not the fixed ones). */
  env: Record<string, string | undefined>;
}

let current: FileServer | undefined;

/**
 * Database and storage settings for a new server: a copy of the run's migrated template
 * (a PGlite data dir in DATA_DIR, or a PostgreSQL database) and a fresh bucket on S3, so the
 * server starts without running a migration.
 */
export async function migratedServiceEnv(): Promise<Record<string, string | undefined>> {
  const template = inject('serverTemplate');
  const env = await freshServiceEnv(template.database);
  const dataDir = tempDir();
  if (template.dataDir) cpSync(path.join(template.dataDir, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return { ...env, DATA_DIR: dataDir };
}

/** The file's server; `extra` settings (e.g. small caps or a fast janitor) apply to it alone. */
export function useFileServer(extra: Record<string, string> = {}, shape: ServiceShape = {}): void {
  beforeAll(async () => {
    const env = { ...(await migratedServiceEnv()), ...extra };
    current = { server: await startInProcess(env, shape), env };
  });
  afterAll(async () => {
    const was = current;
    current = undefined;
    if (!was) return;
    await was.server.stop();
    rmSync(was.server.dataDir, { recursive: true, force: true });
    if (was.env.DATABASE_URL) await dropTestDatabase(was.env.DATABASE_URL).catch(() => {});
  });
}

function fileServer(): FileServer {
  if (!current) throw new Error('this test file has no server of its own: call useFileServer() at its top');
  return current;
}

export const baseUrl = () => fileServer().server.url;
/** The file server's hosted origin (its second listener): where /p/ is served. */
export const hostedUrl = () => fileServer().server.hostedUrl!;
/** The hosted front's inner listener (lib/http/hosted-front.ts): only the front may use it. */
export const innerUrl = () => fileServer().server.innerUrl;
/** Requests the hosted front answered itself so far. */
export const frontHits = () => fileServer().server.frontHits();
/** Large objects the hosted front streamed from the store itself so far. */
export const frontObjects = () => fileServer().server.frontObjects();
export const serverEnv = () => fileServer().env;
export const dataDir = () => fileServer().server.dataDir;
/** The file server's process: the server runs inside this test file's own process. */
export const serverPid = () => process.pid;
/** What the file server logged since it started (its start-up lines and boot checks). */
export const serverOutput = () => fileServer().server.output();
