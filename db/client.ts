import 'server-only';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import * as schema from './schema';
import { withCommitHooks } from './transaction';

// In a module of their own, so db/transaction.ts can name them without importing this one.
import type { Db } from './types';
export type { Db, Schema } from './types';
export type DbKind = 'pglite' | 'postgres';

export interface DbHandle {
  db: Db;
  kind: DbKind;
  /** For migrations: the driver-specific database object. */
  raw: unknown;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL through postgres.js when a URL is given, else the embedded PGlite under
 * `dataDir`. One PGlite per process: it takes hundreds of MB and owns its directory.
 */
export async function createDb(opts: { url?: string; dataDir?: string }): Promise<DbHandle> {
  if (opts.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(opts.url, {
      max: 10,
      onnotice: () => {},
      // A restarted server drops idle sockets; recycle them rather than fail a request on one.
      idle_timeout: 30,
      max_lifetime: 60 * 30,
      connect_timeout: 10,
    });
    const db = withCommitHooks(drizzle(client, { schema }) as unknown as Db);
    return { db, kind: 'postgres', raw: db, close: () => client.end({ timeout: 5 }) };
  }
  const dir = path.resolve(opts.dataDir ?? './data', 'pglite');
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  // Postgres's default 128 MB of shared buffers is touched at start and stays resident: 16 MB
  // holds this schema's working set, and the OS page cache keeps the files warm anyway.
  // pg_trgm: the lists' searches use its indexes (db/migrations/0012_search_trigram.sql).
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
  const db = withCommitHooks(drizzle(client, { schema }) as unknown as Db);
  return { db, kind: 'pglite', raw: db, close: () => client.close() };
}
