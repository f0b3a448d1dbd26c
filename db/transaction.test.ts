import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useMigratedDb } from '../tests/support/migrated-db';
import { bumpEpoch, EPOCH, onEpochBump, readEpoch } from './queries/settings';
import { afterCommit } from './transaction';

// What lets no use case forget to drop a cache: the drop runs from the write itself, once it
// committed, and never for a write that rolled back. On a copy of the run's migrated template
// (an empty PGlite migrated here was initdb and every migration: 15 s of CPU).
const dbh = useMigratedDb();

describe('after-commit hooks', () => {
  it('run once the transaction committed, not before, and not at all after a rollback', async () => {
    const ran: string[] = [];
    await dbh.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      afterCommit(tx, () => ran.push('committed'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['committed']);
    await expect(
      dbh.db.transaction(async (tx) => {
        afterCommit(tx, () => ran.push('rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(ran).toEqual(['committed']);
  });

  it("bumpEpoch drops this instance's caches through its own transaction", async () => {
    let drops = 0;
    onEpochBump(dbh.db, EPOCH.hosting, () => drops++);
    const before = await readEpoch(dbh.db, EPOCH.hosting);
    await dbh.db.transaction(async (tx) => {
      await bumpEpoch(tx, EPOCH.hosting);
      expect(drops).toBe(0);
    });
    expect(drops).toBe(1);
    expect(await readEpoch(dbh.db, EPOCH.hosting)).not.toBe(before);
    await bumpEpoch(dbh.db, EPOCH.hosting); // outside a transaction: committed at once
    expect(drops).toBe(2);
    await bumpEpoch(dbh.db, EPOCH.shares);
    expect(drops).toBe(2);
  });
});
