import 'server-only';
import { and, count, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { afterCommit } from '../transaction';
import { events, webhookDeliveries, webhooks, type WebhookDeliveryRow, type WebhookRow } from '../schema';
import { outboxSignal } from './events';
import { containing } from './lists';

/** Whose webhooks a query reaches: a user's, or (null) those made in an Admin Token session. */
export type WebhookOwner = { ownerId: string | null };

const ownedBy = ({ ownerId }: WebhookOwner): SQL => (ownerId === null ? isNull(webhooks.userId) : eq(webhooks.userId, ownerId));

export async function countWebhooks(db: Db, owner: WebhookOwner): Promise<number> {
  const [r] = await db.select({ n: count() }).from(webhooks).where(ownedBy(owner));
  return Number(r?.n ?? 0);
}

export async function insertWebhook(db: Db, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [created] = await db.insert(webhooks).values(row).returning();
  return created;
}

export interface WebhookCursor {
  createdAtUs: string;
  id: string;
}

/** One page of an owner's webhooks, newest first (`limit` rows; ask one more to know if more follow). */
export async function listWebhooksPage(
  db: Db,
  owner: WebhookOwner,
  page: { limit: number; after?: WebhookCursor; q?: string },
): Promise<{ webhook: WebhookRow; createdAtUs: string }[]> {
  const conditions: SQL[] = [ownedBy(owner)];
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

export async function findWebhook(db: Db, owner: WebhookOwner, id: string): Promise<WebhookRow | null> {
  const [row] = await db.select().from(webhooks).where(and(ownedBy(owner), eq(webhooks.id, id)));
  return row ?? null;
}

export async function updateWebhook(
  db: Db,
  owner: WebhookOwner,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'active'>>,
): Promise<WebhookRow | null> {
  if (Object.keys(patch).length === 0) return findWebhook(db, owner, id);
  const [row] = await db.update(webhooks).set(patch).where(and(ownedBy(owner), eq(webhooks.id, id))).returning();
  return row ?? null;
}

export async function deleteWebhook(db: Db, owner: WebhookOwner, id: string): Promise<boolean> {
  const gone = await db.delete(webhooks).where(and(ownedBy(owner), eq(webhooks.id, id))).returning({ id: webhooks.id });
  return gone.length > 0;
}

export type DeliveryWithType = WebhookDeliveryRow & { type: string };

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  responseStatus: webhookDeliveries.responseStatus,
  lastError: webhookDeliveries.lastError,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookDeliveries.createdAt,
  type: events.type,
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

/** A new delivery of the same event to the same webhook, due now; null when the delivery is unknown. */
export async function redeliver(db: Db, webhookId: string, deliveryId: string): Promise<DeliveryWithType | null> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .select({ eventId: webhookDeliveries.eventId, type: events.type })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
    if (!old) return null;
    const [row] = await tx.insert(webhookDeliveries).values({ webhookId, eventId: old.eventId }).returning();
    afterCommit(tx, () => outboxSignal.wake?.());
    return { ...row, type: old.type };
  });
}

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  webhookId: string;
  url: string;
  secret: string;
  eventId: string;
  type: string;
  data: unknown;
  eventAt: Date;
}

/**
 * Claims up to `limit` due deliveries for one attempt each: their next_attempt_at moves past a
 * lease in the same statement that takes their row locks (SKIP LOCKED: another instance's
 * claim in flight is passed over), so no other instance takes them while this one sends.
 */
export async function claimDueDeliveries(db: Db, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const result = await db.execute(sql`
    WITH due AS (
      SELECT d.id FROM ${webhookDeliveries} d JOIN ${webhooks} w ON w.id = d.webhook_id AND w.active
      WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      ORDER BY d.next_attempt_at LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE ${webhookDeliveries} d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.attempts, d.webhook_id, d.event_id
    )
    SELECT c.id, c.attempts, c.webhook_id, w.url, w.secret, c.event_id, e.type, e.data, e.created_at
    FROM claimed c JOIN ${webhooks} w ON w.id = c.webhook_id JOIN ${events} e ON e.id = c.event_id`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: String(r.id),
    attempts: Number(r.attempts),
    webhookId: String(r.webhook_id),
    url: String(r.url),
    secret: String(r.secret),
    eventId: String(r.event_id),
    type: String(r.type),
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
    eventAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
  }));
}

/** The outcome of one attempt: delivered, failed for good, or due again after `retryInSeconds`. */
export async function finishAttempt(
  db: Db,
  d: { id: string; webhookId: string },
  outcome: { status: 'delivered' | 'failed' | 'pending'; responseStatus: number | null; error: string | null; retryInSeconds?: number },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome.status,
        responseStatus: outcome.responseStatus,
        lastError: outcome.error,
        deliveredAt: outcome.status === 'delivered' ? sql`now()` : null,
        nextAttemptAt: outcome.status === 'pending' ? sql`now() + make_interval(secs => ${outcome.retryInSeconds ?? 0})` : sql`now()`,
      })
      .where(eq(webhookDeliveries.id, d.id));
    await tx.update(webhooks).set({ lastDeliveryAt: sql`now()`, lastStatus: outcome.responseStatus }).where(eq(webhooks.id, d.webhookId));
  });
}
