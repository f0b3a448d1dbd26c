import 'server-only';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { afterCommit } from '../transaction';
import { events, shareGroups, webhookDeliveries, webhooks } from '../schema';

/**
 * The outbox (API.md "Events"). insertEvents() is called inside the transaction of the change
 * the events describe, and fans each event out to the webhooks subscribed to it in the same
 * statement batch, so an event and its deliveries commit (or roll back) with the change.
 */
export interface NewEvent {
  type: string;
  /** 'owner': the webhooks of userId (null: the Admin Token's); 'admins': every administrator's. */
  audience: 'owner' | 'admins';
  userId: string | null;
  data: Record<string, unknown>;
}

/** Events their owner may be e-mailed about; share.expiring is for e-mail only (no webhook type). */
export const MAIL_TYPES: readonly string[] = ['share.downloaded', 'request.uploaded', 'share.expiring'];

/** Pending deliveries one webhook may hold; past it new events are not queued for it. */
export const MAX_PENDING_PER_WEBHOOK = 1000;

/** Wakes this instance's delivery worker once the events are committed (set by the worker). */
export const outboxSignal = { wakers: new Set<() => void>() };

export async function insertEvents(db: Db, list: NewEvent[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = await db
    .insert(events)
    .values(list.map((e) => ({ type: e.type, audience: e.audience, userId: e.userId, data: e.data, mailAt: MAIL_TYPES.includes(e.type) && e.userId ? sql`now()` : null })))
    .returning({ id: events.id });
  const ids = rows.map((r) => r.id);
  // Subscribers: the owner's active webhooks (null owner = the Admin Token's), or for sites every
  // active administrator's and the Admin Token's. A webhook at its pending bound is skipped.
  const queued = await db.execute(sql`
    INSERT INTO ${webhookDeliveries} (webhook_id, event_id)
    SELECT w.id, e.id FROM ${events} e
    JOIN ${webhooks} w ON w.active AND e.type = ANY(w.events) AND (
      (e.audience = 'owner' AND w.user_id IS NOT DISTINCT FROM e.user_id)
      OR (e.audience = 'admins' AND (w.user_id IS NULL OR EXISTS (
        SELECT 1 FROM users u WHERE u.id = w.user_id AND u.role = 'admin' AND u.status = 'active'))))
    WHERE e.id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})
      AND (SELECT count(*) FROM ${webhookDeliveries} p WHERE p.webhook_id = w.id AND p.status = 'pending') < ${MAX_PENDING_PER_WEBHOOK}
    RETURNING id`);
  if (rowCount(queued) > 0 || list.some((e) => MAIL_TYPES.includes(e.type))) afterCommit(db, () => outboxSignal.wakers.forEach((wake) => wake()));
  return ids;
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; length?: number; count?: number };
  return r.rows?.length ?? r.count ?? r.length ?? 0;
}

/** share.downloaded events of guest downloads that reached their last byte, owner looked up. */
export async function insertDownloadEvents(db: Db, list: { shareId: string; path: string | null; bytes: number }[]): Promise<void> {
  if (list.length === 0) return;
  const owners = await db
    .select({ id: shareGroups.id, userId: shareGroups.userId })
    .from(shareGroups)
    .where(inArray(shareGroups.id, [...new Set(list.map((d) => d.shareId))]));
  const ownerOf = new Map(owners.map((o) => [o.id, o.userId]));
  await insertEvents(
    db,
    list
      .filter((d) => ownerOf.has(d.shareId))
      .map((d) => ({ type: 'share.downloaded', audience: 'owner' as const, userId: ownerOf.get(d.shareId) ?? null, data: { share_id: d.shareId, url: `/f/${d.shareId}`, path: d.path, bytes: d.bytes } })),
  );
}

/**
 * share.expired for every complete share whose expiry passed in the last day and had no event
 * for that expiry yet, in one transaction with the mark (extending the expiry re-arms it).
 */
export async function emitExpiredShares(db: Db, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: shareGroups.id, userId: shareGroups.userId, note: shareGroups.note, expiresAt: shareGroups.expiresAt })
      .from(shareGroups)
      .where(
        and(
          eq(shareGroups.uploadState, 'complete'),
          lt(shareGroups.expiresAt, sql`now()`),
          // Only recent expiries: shares that expired before events existed stay quiet.
          sql`${shareGroups.expiresAt} > now() - interval '1 day'`,
          sql`${shareGroups.expiredEventFor} IS DISTINCT FROM ${shareGroups.expiresAt}`,
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    await tx
      .update(shareGroups)
      .set({ expiredEventFor: sql`${shareGroups.expiresAt}` })
      .where(inArray(shareGroups.id, due.map((d) => d.id)));
    await insertEvents(
      tx,
      due.map((d) => ({
        type: 'share.expired',
        audience: 'owner' as const,
        userId: d.userId,
        data: { share_id: d.id, url: `/f/${d.id}`, note: d.note, expires_at: d.expiresAt!.toISOString() },
      })),
    );
    return due.length;
  });
}

/** Events (with their deliveries) and delivery rows past the retention. */
export async function purgeOldEvents(db: Db, retentionDays: number): Promise<void> {
  await db.delete(events).where(lt(events.createdAt, sql`now() - make_interval(days => ${retentionDays})`));
}

/**
 * share.expiring (e-mail only) for complete shares that expire within a day and had no notice
 * for that expiry yet; extending the expiry re-arms it. Only a share that already existed when
 * its last day began is told so: a share made for a day (or less) is not "about to expire" a
 * minute after its owner chose that (issue 41, item 11).
 */
export async function emitExpiringShares(db: Db, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: shareGroups.id, userId: shareGroups.userId, note: shareGroups.note, expiresAt: shareGroups.expiresAt })
      .from(shareGroups)
      .where(
        and(
          eq(shareGroups.uploadState, 'complete'),
          sql`${shareGroups.expiresAt} > now() AND ${shareGroups.expiresAt} <= now() + interval '1 day'`,
          sql`${shareGroups.createdAt} <= ${shareGroups.expiresAt} - interval '1 day'`,
          sql`${shareGroups.expiringNoticeFor} IS DISTINCT FROM ${shareGroups.expiresAt}`,
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return 0;
    await tx
      .update(shareGroups)
      .set({ expiringNoticeFor: sql`${shareGroups.expiresAt}` })
      .where(inArray(shareGroups.id, due.map((d) => d.id)));
    await insertEvents(
      tx,
      due.filter((d) => d.userId).map((d) => ({ type: 'share.expiring', audience: 'owner' as const, userId: d.userId, data: { share_id: d.id, note: d.note, expires_at: d.expiresAt!.toISOString() } })),
    );
    return due.length;
  });
}
