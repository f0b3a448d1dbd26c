import 'server-only';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { afterCommit } from '../transaction';
import { events, webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '../schema';
import { MAX_PENDING_PER_WEBHOOK, outboxSignal } from './events';
import { containing } from './lists';
import type { UsPosition } from './lists';
import { ownedBy, type Owner } from './owner';

/** Whose webhooks a query reaches: a user's, or (null) those made in an Admin Token session. */
const mine = (owner: Owner) => ownedBy(webhooks.userId, owner);

export async function countWebhooks(db: Db, owner: Owner): Promise<number> {
  const [r] = await db.select({ n: count() }).from(webhooks).where(mine(owner));
  return Number(r?.n ?? 0);
}

export async function insertWebhook(db: Db, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [created] = await db.insert(webhooks).values(row).returning();
  return created;
}

/** One page of an owner's webhooks, newest first (`limit` rows; ask one more to know if more follow). */
export async function listWebhooksPage(
  db: Db,
  owner: Owner,
  page: { limit: number; after?: UsPosition; q?: string },
): Promise<{ webhook: WebhookRow; createdAtUs: string }[]> {
  const conditions: (SQL | undefined)[] = [mine(owner)];
  if (page.after) {
    const { createdAtUs, id } = page.after;
    conditions.push(sql`(${webhooks.createdAt}, ${webhooks.id}) < (timestamptz 'epoch' + ${createdAtUs}::bigint * interval '1 microsecond', ${id}::uuid)`);
  }
  if (page.q) conditions.push(ilike(webhooks.url, containing(page.q)));
  return db
    .select({ webhook: webhooks, createdAtUs: sql<string>`(extract(epoch from ${webhooks.createdAt}) * 1000000)::bigint::text` })
    .from(webhooks)
    .where(and(...conditions))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
    .limit(page.limit);
}

export async function findWebhook(db: Db, owner: Owner, id: string): Promise<WebhookRow | null> {
  const [row] = await db.select().from(webhooks).where(and(mine(owner), eq(webhooks.id, id)));
  return row ?? null;
}

export async function updateWebhook(
  db: Db,
  owner: Owner,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'active' | 'pausedReason' | 'consecutiveFailures' | 'consecutiveTimeouts'>>,
): Promise<WebhookRow | null> {
  if (Object.keys(patch).length === 0) return findWebhook(db, owner, id);
  const [row] = await db.update(webhooks).set(patch).where(and(mine(owner), eq(webhooks.id, id))).returning();
  return row ?? null;
}

export async function deleteWebhook(db: Db, owner: Owner, id: string): Promise<boolean> {
  const gone = await db.delete(webhooks).where(and(mine(owner), eq(webhooks.id, id))).returning({ id: webhooks.id });
  return gone.length > 0;
}

/** A delivery with its event: the type, the payload's data and the event's time (the payload's timestamp). */
export type DeliveryWithType = WebhookDeliveryRow & { type: string; data: unknown; eventAt: Date };

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  responseStatus: webhookDeliveries.responseStatus,
  lastError: webhookDeliveries.lastError,
  responseBody: webhookDeliveries.responseBody,
  leasedUntil: webhookDeliveries.leasedUntil,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookDeliveries.createdAt,
  type: events.type,
  data: events.data,
  eventAt: events.createdAt,
};

/** A webhook's newest deliveries (the caller checked the webhook is theirs). */
export async function listDeliveries(db: Db, webhookId: string, limit: number): Promise<DeliveryWithType[]> {
  return db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * A new delivery of the same event to the same webhook, due now; null when the delivery is
 * unknown, 'full' when the webhook already holds MAX_PENDING_PER_WEBHOOK pending deliveries.
 * The webhook's row is locked while counting, so concurrent redeliveries cannot overshoot.
 */
export async function redeliver(db: Db, webhookId: string, deliveryId: string): Promise<DeliveryWithType | null | 'full'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM ${webhooks} WHERE id = ${webhookId} FOR UPDATE`);
    const [old] = await tx
      .select({ eventId: webhookDeliveries.eventId, type: events.type, data: events.data, eventAt: events.createdAt })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
    if (!old) return null;
    const [pending] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
    if (Number(pending?.n ?? 0) >= MAX_PENDING_PER_WEBHOOK) return 'full';
    const [row] = await tx.insert(webhookDeliveries).values({ webhookId, eventId: old.eventId }).returning();
    afterCommit(tx, () => outboxSignal.wakers.forEach((wake) => wake()));
    return { ...row, type: old.type, data: old.data, eventAt: old.eventAt };
  });
}

/** The event type of *Send test event*: delivered to the one webhook asked, whatever its events. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * A webhook.test event and its one delivery, due now ('full' at the pending bound, as redeliver).
 * No mail is due for it and no other webhook receives it.
 */
export async function queueTestEvent(db: Db, webhookId: string, ownerId: string | null): Promise<DeliveryWithType | 'full'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM ${webhooks} WHERE id = ${webhookId} FOR UPDATE`);
    const [pending] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
    if (Number(pending?.n ?? 0) >= MAX_PENDING_PER_WEBHOOK) return 'full';
    const data = { webhook_id: webhookId, message: 'A test event from htmls: your receiver got it.' };
    const [event] = await tx.insert(events).values({ type: TEST_EVENT_TYPE, audience: 'owner', userId: ownerId, data }).returning();
    const [row] = await tx.insert(webhookDeliveries).values({ webhookId, eventId: event.id }).returning();
    afterCommit(tx, () => outboxSignal.wakers.forEach((wake) => wake()));
    return { ...row, type: TEST_EVENT_TYPE, data, eventAt: event.createdAt };
  });
}

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  webhookId: string;
  url: string;
  secret: string;
  /** Attempts to this webhook that timed out in a row before this one. */
  consecutiveTimeouts: number;
  eventId: string;
  type: string;
  data: unknown;
  eventAt: Date;
}

/** How many attempts may be in flight at once, over every instance. */
export interface ClaimBounds {
  /** Claimed at most in this call (the caller's free slots). */
  limit: number;
  perWebhook: number;
  perOwner: number;
  leaseSeconds: number;
}

/** Any fixed key: claims of all instances take turns on it (a claim is one short statement). */
const CLAIM_LOCK = 0x68746d6c;

/**
 * Claims up to `limit` due deliveries for one attempt each, fairly: no webhook gets more than
 * `perWebhook` attempts in flight and no owner more than `perOwner` (in flight: a claim whose
 * lease has not run out, on any instance), and owners take turns — each owner's oldest due
 * deliveries first, the owner with the fewest in flight first. So one member's slow or dead
 * receivers hold a few slots and never the queue. A claimed row's next_attempt_at and
 * leased_until move past a lease in the same statement that takes its row lock (SKIP LOCKED:
 * a row another instance is finishing is passed over); a lease that runs out (its instance
 * died) makes the row due again. Claims of all instances are serialized by a transaction-level
 * advisory lock, so the in-flight bounds hold across instances too.
 */
export async function claimDueDeliveries(db: Db, b: ClaimBounds): Promise<ClaimedDelivery[]> {
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`);
    return tx.execute(sql`
    WITH busy AS (
      SELECT d.webhook_id, w.user_id, count(*) AS n FROM ${webhookDeliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id
      WHERE d.status = 'pending' AND d.leased_until > now()
      GROUP BY d.webhook_id, w.user_id
    ), owner_busy AS (
      SELECT user_id, sum(n) AS n FROM busy GROUP BY user_id
    ), candidates AS (
      SELECT c.id, c.next_attempt_at, w.user_id,
        coalesce(hb.n, 0) + row_number() OVER (PARTITION BY w.id ORDER BY c.next_attempt_at, c.id) AS hook_rank
      FROM ${webhooks} w
      LEFT JOIN busy hb ON hb.webhook_id = w.id
      CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at FROM ${webhookDeliveries} d
        WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at LIMIT ${b.perWebhook}
      ) c
      WHERE w.active AND coalesce(hb.n, 0) < ${b.perWebhook}
    ), eligible AS (
      SELECT c.id, c.next_attempt_at,
        coalesce(ob.n, 0) + row_number() OVER (PARTITION BY c.user_id ORDER BY c.next_attempt_at, c.id) AS owner_rank
      FROM candidates c LEFT JOIN owner_busy ob ON ob.user_id IS NOT DISTINCT FROM c.user_id
      WHERE c.hook_rank <= ${b.perWebhook}
    ), picked AS (
      SELECT id FROM eligible WHERE owner_rank <= ${b.perOwner}
      ORDER BY owner_rank, next_attempt_at LIMIT ${b.limit}
    ), locked AS (
      SELECT d.id FROM ${webhookDeliveries} d WHERE d.id IN (SELECT id FROM picked) AND d.status = 'pending'
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE ${webhookDeliveries} d SET attempts = d.attempts + 1,
        next_attempt_at = now() + make_interval(secs => ${b.leaseSeconds}),
        leased_until = now() + make_interval(secs => ${b.leaseSeconds})
      FROM locked WHERE d.id = locked.id
      RETURNING d.id, d.attempts, d.webhook_id, d.event_id
    )
    SELECT c.id, c.attempts, c.webhook_id, w.url, w.secret, w.consecutive_timeouts, c.event_id, e.type, e.data, e.created_at
    FROM claimed c JOIN ${webhooks} w ON w.id = c.webhook_id JOIN ${events} e ON e.id = c.event_id`);
  });
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: String(r.id),
    attempts: Number(r.attempts),
    webhookId: String(r.webhook_id),
    url: String(r.url),
    secret: String(r.secret),
    consecutiveTimeouts: Number(r.consecutive_timeouts ?? 0),
    eventId: String(r.event_id),
    type: String(r.type),
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
    eventAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
  }));
}

/**
 * An attempt abandoned when its instance stopped: the claim is given back, the delivery due again
 * at once and the attempt not counted (the next start, or another instance, sends it). Only
 * while the claim is still this one's (pending, with the attempts it claimed).
 */
export async function giveBackDelivery(db: Db, d: { id: string; attempts: number }): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} - 1`, leasedUntil: null, nextAttemptAt: sql`now()` })
    .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, d.attempts)));
}

export interface AttemptOutcome {
  status: 'delivered' | 'failed' | 'pending';
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  timedOut: boolean;
  retryInSeconds?: number;
}

/**
 * The outcome of one attempt: delivered, failed for good, or due again after `retryInSeconds`.
 * The webhook counts failed attempts in a row (and timeouts in a row); at `pauseAfter` it is
 * paused (inactive, with the reason) until its owner re-enables it. True when this paused it.
 */
export async function finishAttempt(db: Db, d: { id: string; webhookId: string }, outcome: AttemptOutcome, pauseAfter: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        responseStatus: outcome.responseStatus,
        responseBody: outcome.responseBody,
        lastError: outcome.error,
        leasedUntil: null,
        deliveredAt: outcome.status === 'delivered' ? sql`now()` : null,
        nextAttemptAt: outcome.status === 'pending' ? sql`now() + make_interval(secs => ${outcome.retryInSeconds ?? 0})` : sql`now()`,
      })
      .where(eq(webhookDeliveries.id, d.id));
    const ok = outcome.status === 'delivered';
    const reason = `Paused after ${pauseAfter} failed deliveries in a row (last: ${outcome.error ?? 'no answer'}); re-enable it once the receiver answers`;
    const [w] = await tx
      .update(webhooks)
      .set({
        lastDeliveryAt: sql`now()`,
        lastStatus: outcome.responseStatus,
        consecutiveFailures: ok ? 0 : sql`${webhooks.consecutiveFailures} + 1`,
        consecutiveTimeouts: outcome.timedOut ? sql`${webhooks.consecutiveTimeouts} + 1` : 0,
        // Evaluated on the row before this update: this failure is the pauseAfter-th in a row.
        pausedReason: ok ? sql`${webhooks.pausedReason}` : sql`CASE WHEN ${webhooks.active} AND ${webhooks.consecutiveFailures} + 1 >= ${pauseAfter} THEN ${reason} ELSE ${webhooks.pausedReason} END`,
        active: ok ? sql`${webhooks.active}` : sql`${webhooks.active} AND ${webhooks.consecutiveFailures} + 1 < ${pauseAfter}`,
      })
      .where(eq(webhooks.id, d.webhookId))
      .returning({ active: webhooks.active, failures: webhooks.consecutiveFailures });
    return !ok && !!w && !w.active && w.failures === pauseAfter;
  });
}
