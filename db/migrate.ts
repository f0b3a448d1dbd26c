import 'server-only';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { DbHandle } from './client';

const migrationsFolder = path.resolve(process.cwd(), 'db/migrations');

/** Any fixed number: the advisory lock that keeps two instances from migrating at once. */
const MIGRATION_LOCK = 72_616_001;

export async function applyMigrations(handle: DbHandle, url?: string): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.raw as never, { migrationsFolder });
    return;
  }
  // A session-level advisory lock needs one connection for the whole run, so migrate on a
  // dedicated single-connection client rather than the pool.
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const client = postgres(url!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** True when every migration in the journal is recorded as applied. */
export async function migrationsApplied(handle: DbHandle): Promise<boolean> {
  const journal = readMigrationFiles({ migrationsFolder });
  const newest = Math.max(0, ...journal.map((m) => m.folderMillis));
  const table = await handle.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!rows<{ t: string | null }>(table)[0]?.t) return journal.length === 0;
  const last = await handle.db.execute(sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`);
  return Number(rows<{ created_at: string | number | null }>(last)[0]?.created_at ?? 0) >= newest;
}

/** postgres.js returns an array; PGlite returns `{ rows }`. */
export function rows<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
