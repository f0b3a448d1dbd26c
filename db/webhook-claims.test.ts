import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useMigratedDb } from '../tests/support/migrated-db';
import { MAX_PENDING_PER_WEBHOOK } from './queries/events';
import { claimDueDeliveries, finishAttempt, redeliver } from './queries/webhooks';
import { events, users, webhookDeliveries, webhooks } from './schema';

// The worker's claim (issue 39, item 4): one owner's backlog cannot take every slot, and the
// in-flight bounds hold for claims that overlap (two instances on one database).
const dbh = useMigratedDb();

async function owner(): Promise<string> {
  const [u] = await dbh.db
    .insert(users)
    .values({ username: `c${randomBytes(5).toString('hex')}`, passwordHash: 'x', quotaBytes: 1 })
    .returning({ id: users.id });
  return u.id;
}

/** A webhook of `userId` with `n` due deliveries, the oldest first in time. */
async function hookWith(userId: string | null, n: number, ageSeconds: number): Promise<{ hookId: string; eventId: string }> {
  const [w] = await dbh.db.insert(webhooks).values({ userId, url: 'http://192.0.2.1/h', events: ['share.created'], secret: 'whsec_x' }).returning();
  const [e] = await dbh.db.insert(events).values({ type: 'share.created', userId, data: { n } }).returning();
  await dbh.db.execute(sql`
    INSERT INTO ${webhookDeliveries} (webhook_id, event_id, next_attempt_at)
    SELECT ${w.id}, ${e.id}, now() - make_interval(secs => ${ageSeconds}) + make_interval(secs => g * 0.001) FROM generate_series(1, ${n}) g`);
  return { hookId: w.id, eventId: e.id };
}

const bounds = { limit: 16, perWebhook: 2, perOwner: 4, leaseSeconds: 60 };

describe('claiming due deliveries', () => {
  it("an owner with a backlog on many webhooks holds at most its share; another owner's newer delivery is claimed at once", async () => {
    const a = await owner();
    const aHooks: { hookId: string }[] = [];
    // Owner A: three webhooks with 20 due deliveries each, all older than B's one.
    for (let i = 0; i < 3; i++) aHooks.push(await hookWith(a, 20, 600));
    const b = await owner();
    const bHook = await hookWith(b, 1, 1);

    const first = await claimDueDeliveries(dbh.db, bounds);
    const byHook = (ids: string[]) => first.filter((d) => ids.includes(d.webhookId)).length;
    expect(byHook([bHook.hookId])).toBe(1);
    expect(byHook(aHooks.map((h) => h.hookId))).toBe(4);
    for (const h of aHooks) expect(byHook([h.hookId])).toBeLessThanOrEqual(2);

    // Nothing finished: A's share is used up, so a second claim (another instance's) takes none of A's.
    const second = await claimDueDeliveries(dbh.db, bounds);
    expect(second.filter((d) => aHooks.some((h) => h.hookId === d.webhookId))).toEqual([]);

    // One attempt ends: A may have one more in flight.
    const done = first.find((d) => d.webhookId !== bHook.hookId)!;
    await finishAttempt(dbh.db, done, { status: 'delivered', responseStatus: 200, responseBody: 'ok', error: null, timedOut: false }, 20);
    const third = await claimDueDeliveries(dbh.db, bounds);
    expect(third.filter((d) => aHooks.some((h) => h.hookId === d.webhookId))).toHaveLength(1);
  });

  it('claims that overlap never pass the bounds together', async () => {
    const c = await owner();
    const hooks: { hookId: string }[] = [];
    for (let i = 0; i < 5; i++) hooks.push(await hookWith(c, 10, 300));
    const claims = (await Promise.all(Array.from({ length: 6 }, () => claimDueDeliveries(dbh.db, bounds)))).flat();
    const mine = claims.filter((d) => hooks.some((h) => h.hookId === d.webhookId));
    expect(mine).toHaveLength(4);
    expect(new Set(mine.map((d) => d.id)).size).toBe(4);
  });

  it('a webhook is paused after the configured failures in a row, with its reason', async () => {
    const { hookId } = await hookWith(await owner(), 3, 10);
    const claimed = await claimDueDeliveries(dbh.db, bounds);
    const mine = claimed.filter((d) => d.webhookId === hookId);
    const fail = { status: 'pending' as const, responseStatus: null, responseBody: null, error: 'no answer within 10 s', timedOut: true, retryInSeconds: 0 };
    expect(await finishAttempt(dbh.db, mine[0], fail, 2)).toBe(false);
    expect(await finishAttempt(dbh.db, mine[1], fail, 2)).toBe(true);
    const [w] = await dbh.db.select().from(webhooks).where(eq(webhooks.id, hookId));
    expect(w).toMatchObject({ active: false, consecutiveFailures: 2, consecutiveTimeouts: 2 });
    expect(w.pausedReason).toContain('no answer within 10 s');
    // A paused webhook's deliveries wait: none is claimed.
    expect((await claimDueDeliveries(dbh.db, bounds)).filter((d) => d.webhookId === hookId)).toEqual([]);
  });

  it(`redeliver stops at ${MAX_PENDING_PER_WEBHOOK} pending deliveries, concurrent calls included`, async () => {
    const { hookId } = await hookWith(null, MAX_PENDING_PER_WEBHOOK - 3, -3600);
    const [one] = await dbh.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId)).limit(1);
    const results = await Promise.all(Array.from({ length: 10 }, () => redeliver(dbh.db, hookId, one.id)));
    expect(results.filter((r) => r === 'full')).toHaveLength(7);
    const [{ n }] = await dbh.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
    expect(n).toBe(MAX_PENDING_PER_WEBHOOK);
  });
});
