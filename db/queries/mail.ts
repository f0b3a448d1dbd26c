import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { events, fileRequests, mailDigests, shareGroups, shareItems, users, type UserRow } from '../schema';

export interface MailEvent {
  id: string;
  type: string;
  userId: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Claims due e-mail events for one try, as deliveries are claimed: mail_at moves past a lease
 * in the statement that locks them (SKIP LOCKED), so two instances never mail one event. Events
 * older than two days are not mailed (a backlog from before SMTP_URL was set).
 */
export async function claimMailEvents(db: Db, limit: number, leaseSeconds: number): Promise<MailEvent[]> {
  const result = await db.execute(sql`
    UPDATE ${events} e SET mail_at = now() + make_interval(secs => ${leaseSeconds})
    WHERE e.id IN (
      SELECT id FROM ${events} WHERE mail_at <= now() AND created_at > now() - interval '2 days' AND user_id IS NOT NULL
      ORDER BY mail_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING e.id, e.type, e.user_id, e.data, e.created_at`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: String(r.id),
    type: String(r.type),
    userId: String(r.user_id),
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
  }));
}

/** Mailed, or not to be mailed: the events leave the queue. */
export async function finishMailEvents(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.update(events).set({ mailAt: null }).where(inArray(events.id, ids));
}

/** Due again at `at` (a digest not allowed yet, or a failed send). */
export async function postponeMailEvents(db: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length) await db.update(events).set({ mailAt: at }).where(inArray(events.id, ids));
}

export async function usersByIds(db: Db, ids: string[]): Promise<Map<string, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(users).where(inArray(users.id, ids));
  return new Map(rows.map((u) => [u.id, u]));
}

/** What a share is named after in a mail (lib/share-title.ts): its note, its first file's path and how many files it holds. */
export interface ShareNaming {
  note: string;
  firstPath: string | null;
  fileCount: number;
}

export async function shareNamings(db: Db, ids: string[]): Promise<Map<string, ShareNaming>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: shareGroups.id, note: shareGroups.note }).from(shareGroups).where(inArray(shareGroups.id, ids));
  const files = await db
    .select({ id: shareItems.groupId, count: sql<number>`count(*)::int`, first: sql<string | null>`min(${shareItems.relativePath} collate "C")` })
    .from(shareItems)
    .where(inArray(shareItems.groupId, ids))
    .groupBy(shareItems.groupId);
  const byId = new Map(files.map((f) => [f.id, f]));
  return new Map(rows.map((r) => [r.id, { note: r.note, firstPath: byId.get(r.id)?.first ?? null, fileCount: Number(byId.get(r.id)?.count ?? 0) }]));
}

/** What the owner's mail about a guest's upload says: who sent it, their message, the request, and the files. */
export interface ReceivedUpload {
  name: string | null;
  email: string | null;
  message: string | null;
  requestNote: string | null;
  /** The first `limit` files in path order, with their stored sizes. */
  files: { path: string; size: number }[];
  fileCount: number;
}

/** null when the share is gone (deleted before the mail went out). */
export async function receivedUpload(db: Db, shareId: string, limit: number): Promise<ReceivedUpload | null> {
  const [group] = await db
    .select({ name: shareGroups.receivedName, email: shareGroups.receivedEmail, message: shareGroups.receivedMessage, requestNote: fileRequests.note })
    .from(shareGroups)
    .leftJoin(fileRequests, eq(fileRequests.id, shareGroups.requestId))
    .where(eq(shareGroups.id, shareId));
  if (!group) return null;
  const files = await db
    .select({ path: shareItems.relativePath, size: shareItems.size })
    .from(shareItems)
    .where(eq(shareItems.groupId, shareId))
    .orderBy(sql`${shareItems.relativePath} collate "C"`)
    .limit(limit);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(shareItems).where(eq(shareItems.groupId, shareId));
  return { ...group, files: files.map((f) => ({ path: f.path, size: Number(f.size) })), fileCount: Number(count?.n ?? 0) };
}

export async function lastDigestAt(db: Db, shareId: string): Promise<Date | null> {
  const [row] = await db.select({ sentAt: mailDigests.sentAt }).from(mailDigests).where(eq(mailDigests.shareId, shareId));
  return row?.sentAt ?? null;
}

export async function markDigestSent(db: Db, shareId: string): Promise<void> {
  await db
    .insert(mailDigests)
    .values({ shareId, sentAt: new Date() })
    .onConflictDoUpdate({ target: mailDigests.shareId, set: { sentAt: sql`excluded.sent_at` } })
    .catch(() => {});
}

export type NotifyKind = 'downloads' | 'uploads' | 'expiring';
const column = { downloads: 'notifyDownloads', uploads: 'notifyUploads', expiring: 'notifyExpiring' } as const;

export async function setNotification(db: Db, userId: string, kind: NotifyKind, on: boolean): Promise<boolean> {
  const rows = await db.update(users).set({ [column[kind]]: on }).where(eq(users.id, userId)).returning({ id: users.id });
  return rows.length > 0;
}
