import { afterAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call } from './support/http';
import { migrate, startServer, tempDir, type RunningServer } from './support/server';
import { dropTestDatabase, freshServiceEnv } from './support/services';

/**
 * No in-process server besides the child ones: on the embedded database the pending-migrations
 * case ends with a server started on the database db:migrate just migrated, and the health
 * cases ask that one. Without it (that case not run, or PostgreSQL, where it is not restarted)
 * they start a server of their own on a migrated copy.
 */
let server: RunningServer | undefined;
/** Whether `server` started on a migrated database (on PostgreSQL the case above does not restart it, and its janitor's first run found no tables). */
let startedMigrated = false;
let dbUrl: string | undefined;
/** The PostgreSQL database of a health cases' server of their own. */
let ownDbUrl: string | undefined;
afterAll(async () => {
  await server?.stop();
  for (const url of [dbUrl, ownDbUrl]) if (url) await dropTestDatabase(url);
});

/** A server on a migrated database: the one the pending-migrations case left, else one of its own. */
async function migratedServer(): Promise<RunningServer> {
  if (!server || !startedMigrated) {
    await server?.stop();
    const env = await migratedServiceEnv();
    ownDbUrl = env.DATABASE_URL;
    server = await startServer(env);
    startedMigrated = true;
  }
  return server;
}

describe('pending migrations', () => {
  // Two server processes and a migration run, each a Node start on a machine CI may load: no
  // short deadline.
  it('answer 503 migrations_pending on every /api route but /api/health until db:migrate runs', { timeout: 300_000 }, async () => {
    // An empty database: PostgreSQL when this run has one, else a fresh PGlite directory; and
    // this run's store (a fresh bucket on S3), which the health cases then report on.
    const services = await freshServiceEnv();
    dbUrl = services.DATABASE_URL;
    const dataDir = tempDir();
    const env = { ...services, DATA_DIR: dataDir, MIGRATE_ON_START: 'false' };
    server = await startServer(env);
    const base = server.url;

    const health = await call('GET', '/api/health', { base });
    expect(health.status).toBe(503);
    expect(health.json).toMatchObject({ ok: false, database: 'ok', migrations: 'pending' });

    for (const [method, path, body] of [
      ['GET', '/api/auth/me', undefined],
      ['GET', '/api/auth/check', undefined],
      ['POST', '/api/auth/login', { token: 'whatever' }],
      ['PATCH', '/api/auth/token', { token: 'whatever-else' }],
    ] as const) {
      const r = await call(method, path, { base, body });
      expect(r.status, `${method} ${path}`).toBe(503);
      expect(r.json.code).toBe('migrations_pending');
    }

    if (!dbUrl) {
      // PGlite allows one process per directory: migrate with the server stopped.
      await server.stop();
    }
    const ran = migrate({ DATA_DIR: dataDir, ...(dbUrl ? { DATABASE_URL: dbUrl } : {}) });
    expect(ran.status, ran.stderr).toBe(0);
    if (!dbUrl) {
      server = await startServer(env);
      startedMigrated = true;
    }

    const after = await call('GET', '/api/health', { base: server.url });
    expect(after.json).toMatchObject({ ok: true, migrations: 'applied' });
    expect((await call('GET', '/api/auth/me', { base: server.url })).status).toBe(401);
  });
});

describe('GET /api/health', () => {
  it('reports database, storage and applied migrations', { timeout: 120_000 }, async () => {
    const r = await call('GET', '/api/health', { base: (await migratedServer()).url });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, database: 'ok', storage: 'ok', migrations: 'applied', janitor: { runs: expect.any(Number), last_run_at: expect.toBeOneOf([null, expect.any(String)]) } });
  });

  it("counts this instance's janitor runs (the first one a second after start)", { timeout: 120_000 }, async () => {
    const base = (await migratedServer()).url;
    await expect.poll(async () => (await call('GET', '/api/health', { base })).json.janitor.runs, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const { janitor } = (await call('GET', '/api/health', { base })).json;
    expect(Date.parse(janitor.last_run_at)).not.toBeNaN();
  });
});
