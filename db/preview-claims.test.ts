import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useMigratedDb } from '../tests/support/migrated-db';
import { claimPendingPreviews, finishPreview } from './queries/previews';
import { shareGroups, shareItems } from './schema';

// The preview worker's claim (docs/link-previews.md): instances claiming at once never take the
// same item, a claim lost with its instance is taken again after its lease, and only the latest
// claim may record the picture (so each poster is made and recorded once).
const dbh = useMigratedDb();

async function shareWith(n: number): Promise<string[]> {
  const id = `p${randomBytes(6).toString('hex')}`;
  await dbh.db.insert(shareGroups).values({ id, status: 'online', uploadState: 'complete' });
  const rows = await dbh.db
    .insert(shareItems)
    .values(
      Array.from({ length: n }, (_, i) => ({
        groupId: id,
        relativePath: `v${i}.mp4`,
        pathKey: `v${i}.mp4`,
        storageKey: `shared/${id}/v${i}.mp4`,
        size: 1000,
        contentType: 'video/mp4',
        etag: '"e"',
      })),
    )
    .returning({ id: shareItems.id, state: shareItems.previewState });
  expect(rows.every((r) => r.state === 'pending')).toBe(true);
  return rows.map((r) => r.id);
}

describe('claiming pending previews', () => {
  it('claims that overlap take disjoint items; a leased item is not claimed again', async () => {
    const ids = await shareWith(20);
    const claims = await Promise.all([1, 2, 3].map(() => claimPendingPreviews(dbh.db, 8, 600)));
    const mine = claims.flat().filter((c) => ids.includes(c.id));
    expect(mine.length).toBe(20);
    expect(new Set(mine.map((c) => c.id)).size).toBe(20);
    expect((await claimPendingPreviews(dbh.db, 8, 600)).filter((c) => ids.includes(c.id))).toEqual([]);
  });

  it('a claim whose lease ended is taken again, and only the newest claim records the picture', async () => {
    const [id] = await shareWith(1);
    const take = async (lease: number) => (await claimPendingPreviews(dbh.db, 50, lease)).find((c) => c.id === id);
    const first = await take(0);
    expect(first?.attempt).toBe(1);
    const second = await take(600);
    expect(second?.attempt).toBe(2);
    expect(await finishPreview(dbh.db, first!, { state: 'ready', key: 'k1', width: 1, height: 1 })).toBe(false);
    expect(await finishPreview(dbh.db, second!, { state: 'ready', key: 'k2', width: 1, height: 1 })).toBe(true);
    const [row] = await dbh.db.select().from(shareItems).where(inArray(shareItems.id, [id]));
    expect([row.previewState, row.previewKey]).toEqual(['ready', 'k2']);
    // Made: never claimed again.
    expect(await take(0)).toBeUndefined();
    await dbh.db.delete(shareItems).where(eq(shareItems.id, id));
    expect(await finishPreview(dbh.db, second!, { state: 'ready', key: 'k3', width: 1, height: 1 })).toBe(false);
  });
});
