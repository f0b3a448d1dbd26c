import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@/db/client';
import { bumpEpoch, EPOCH } from '@/db/queries/settings';
import { migratedServiceEnv } from '../tests/support/file-server';
import { requires } from '../tests/support/requires';
import { dropTestDatabase } from '../tests/support/services';
import { epochCache } from './epoch-cache';
import { epochReadAt, stopEpochWatches } from './epoch-watch';
import type { Runtime } from './runtime';

// The guest caches on PostgreSQL (instances poll the epoch): a change made on this instance
// drops the entries once, as it commits; another instance's change drops them at the next
// reading. CI saw a site deployed here dropped a second time by the poll's late reading of
// the deploy's own move, so that the site was not in memory when the database went away
// (tests/faults.slow.test.ts "keeps serving a cached hosted site").
let dbh: DbHandle;
let env: Record<string, string | undefined>;
let rt: Runtime;
const pg = requires('postgres');
beforeAll(async () => {
  if (pg.reason) return;
  env = await migratedServiceEnv();
  dbh = await createDb({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
  rt = { env: { databaseUrl: env.DATABASE_URL }, db: dbh.db, state: {} } as unknown as Runtime;
}, 120_000);
afterAll(async () => {
  if (rt) stopEpochWatches(rt);
  await dbh?.close();
  if (env?.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
  if (env?.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
});

/** Resolves once the poll has read the epoch twice after now: the second reading began after now. */
async function twoReadingsLater() {
  const now = Date.now();
  await expect.poll(() => epochReadAt(rt, EPOCH.shares), { timeout: 30_000, interval: 20 }).toBeGreaterThan(now);
  const first = epochReadAt(rt, EPOCH.shares);
  await expect.poll(() => epochReadAt(rt, EPOCH.shares), { timeout: 30_000, interval: 20 }).toBeGreaterThan(first);
}

pg.describe('an epoch cache on PostgreSQL', () => {
  it("drops its entries once for a change made here (not again at the poll's reading of it), and at the next reading for another instance's", async () => {
    const cache = epochCache<number>({ name: 'test', epoch: EPOCH.shares, maxEntries: 10 });
    let loads = 0;
    const get = () => cache.get(rt, 'k', async () => ++loads);
    expect(await get()).toBe(1);
    expect(await get()).toBe(1);

    // A change made here: dropped as it commits, loaded again, and kept after the poll has
    // read the move.
    await dbh.db.transaction((tx) => bumpEpoch(tx, EPOCH.shares));
    expect(await get()).toBe(2);
    await twoReadingsLater();
    expect(await get()).toBe(2);

    // Another instance's change (the counter moved without this process): dropped once read.
    await dbh.db.execute(sql`update settings set value = (value::bigint + 1)::text where key = ${EPOCH.shares}`);
    await expect.poll(get, { timeout: 30_000, interval: 20 }).toBe(3);
    await twoReadingsLater();
    expect(await get()).toBe(3);
  });
});
