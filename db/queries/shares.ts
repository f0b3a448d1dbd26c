import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { pendingUploads, shareGroups, shareItems, users, type ShareGroupRow, type ShareItemRow } from '../schema';

export interface ShareWithItems {
  group: ShareGroupRow;
  username: string | null;
  items: ShareItemRow[];
}

/** Shares with their items, newest first: one owner's, or everyone's when ownerId is undefined. */
export async function listShares(db: Db, ownerId?: string | null): Promise<ShareWithItems[]> {
  const where =
    ownerId === undefined ? undefined : ownerId === null ? sql`${shareGroups.userId} is null` : eq(shareGroups.userId, ownerId);
  const groups = await db
    .select({ group: shareGroups, username: users.username })
    .from(shareGroups)
    .leftJoin(users, eq(users.id, shareGroups.userId))
    .where(where)
    .orderBy(desc(shareGroups.createdAt));
  if (groups.length === 0) return [];
  const items = await db
    .select()
    .from(shareItems)
    .where(inArray(shareItems.groupId, groups.map((g) => g.group.id)))
    .orderBy(asc(shareItems.relativePath));
  const byGroup = new Map<string, ShareItemRow[]>();
  for (const it of items) byGroup.set(it.groupId, [...(byGroup.get(it.groupId) ?? []), it]);
  return groups.map((g) => ({ group: g.group, username: g.username, items: byGroup.get(g.group.id) ?? [] }));
}

export async function findShare(db: Db, id: string): Promise<ShareWithItems | null> {
  const [g] = await db
    .select({ group: shareGroups, username: users.username })
    .from(shareGroups)
    .leftJoin(users, eq(users.id, shareGroups.userId))
    .where(eq(shareGroups.id, id));
  if (!g) return null;
  const items = await db.select().from(shareItems).where(eq(shareItems.groupId, id)).orderBy(asc(shareItems.relativePath));
  return { group: g.group, username: g.username, items };
}

export async function findShareGroup(db: Db, id: string): Promise<ShareGroupRow | null> {
  const [g] = await db.select().from(shareGroups).where(eq(shareGroups.id, id));
  return g ?? null;
}

export async function findShareItem(db: Db, groupId: string, relativePath: string): Promise<ShareItemRow | null> {
  const [it] = await db
    .select()
    .from(shareItems)
    .where(and(eq(shareItems.groupId, groupId), eq(shareItems.relativePath, relativePath)));
  return it ?? null;
}

/** The pending session for an (uploadId, storageKey) pair, with its group. */
export async function findPendingUpload(db: Db, uploadId: string, storageKey: string) {
  const [row] = await db
    .select({ pending: pendingUploads, group: shareGroups })
    .from(pendingUploads)
    .innerJoin(shareGroups, eq(shareGroups.id, pendingUploads.groupId))
    .where(and(eq(pendingUploads.uploadId, uploadId), eq(pendingUploads.storageKey, storageKey)));
  return row ?? null;
}

export async function listPendingUploads(db: Db, groupId: string) {
  return db.select().from(pendingUploads).where(eq(pendingUploads.groupId, groupId)).orderBy(asc(pendingUploads.relativePath));
}

/** Bytes a user has reserved in uploads not yet completed. */
export async function reservedBytes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${shareGroups.reservedBytes}), 0)` })
    .from(shareGroups)
    .where(and(eq(shareGroups.userId, userId), eq(shareGroups.uploadState, 'pending')));
  return Number(row?.total ?? 0);
}

export async function stalePendingGroups(db: Db, olderThanMs: number, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: shareGroups.id })
    .from(shareGroups)
    .where(
      and(
        eq(shareGroups.uploadState, 'pending'),
        lt(shareGroups.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * A page of pending files of direct-mode uploads (their parts reach the store without passing
 * the server), in id order after `afterId`, with the group's part size.
 */
export async function pendingDirectUploadsPage(db: Db, afterId: string | null, limit = 500) {
  return db
    .select({ pending: pendingUploads, partSize: shareGroups.partSize })
    .from(pendingUploads)
    .innerJoin(shareGroups, eq(shareGroups.id, pendingUploads.groupId))
    .where(
      and(
        eq(shareGroups.uploadState, 'pending'),
        eq(shareGroups.uploadMode, 'direct'),
        afterId === null ? undefined : gt(pendingUploads.id, afterId),
      ),
    )
    .orderBy(asc(pendingUploads.id))
    .limit(limit);
}
