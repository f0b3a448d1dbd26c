import 'server-only';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { bumpEpoch, EPOCH } from './settings';
import { scheduleDeletion } from './storage-gc';
import { pendingUploads, shareGroups, shareItems, users, type ShareGroupRow, type ShareItemRow } from '../schema';
import { ownedBy, type Owner } from './owner';

export interface ShareWithItems {
  group: ShareGroupRow;
  username: string | null;
  /** The owner's display name, else username (null: the administrator's share). */
  ownerName: string | null;
  items: ShareItemRow[];
}

/**
 * Whose share rows a query reaches: one owner's (`null` is the Admin Token's own), or `'any'`
 * (the administrator, every owner's). Always said, never implied by a missing owner id.
 */

/** The condition on a share's owner. */
export const shareOwnedBy = (owner: Owner) => ownedBy(shareGroups.userId, owner);

const ownerName = (g: { username: string | null; displayName: string | null }) => g.displayName || g.username;

/** A share with its items when `owner` may manage it, else null (ownership in the WHERE clause). */
export async function findShareOwnedBy(db: Db, owner: Owner, id: string): Promise<ShareWithItems | null> {
  const [g] = await db
    .select({ group: shareGroups, username: users.username, displayName: users.displayName })
    .from(shareGroups)
    .leftJoin(users, eq(users.id, shareGroups.userId))
    // Files being added to a share are part of that share's upload, not a share of their own.
    .where(and(eq(shareGroups.id, id), shareOwnedBy(owner), isNull(shareGroups.addsTo)));
  if (!g) return null;
  const items = await db.select().from(shareItems).where(eq(shareItems.groupId, id)).orderBy(asc(shareItems.relativePath));
  return { group: g.group, username: g.username, ownerName: ownerName(g), items };
}

export type ShareGroupPatch = Partial<Pick<ShareGroupRow, 'note' | 'expiresAt' | 'passwordHash' | 'status' | 'maxDownloads'>>;

/**
 * Updates a share's settings, filtered on id and owner, and bumps the shares epoch (guests'
 * cached views of it drop) in the same transaction. The updated row, or null when none matched.
 */
export async function updateShareGroup(db: Db, owner: Owner, id: string, patch: ShareGroupPatch): Promise<ShareGroupRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(shareGroups)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(and(eq(shareGroups.id, id), shareOwnedBy(owner)))
      .returning();
    if (!row) return null;
    await bumpEpoch(tx, EPOCH.shares);
    return row;
  });
}

/**
 * Deletes a share (filtered on id and owner) and, in the same transaction, bumps the shares
 * epoch, gives its bytes back to the owner's usage and schedules `prefix` for deletion. Returns the deletion job ids, or
 * null when no row matched.
 */
export async function deleteShareGroup(db: Db, owner: Owner, id: string, prefix: string): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(shareGroups)
      .where(and(eq(shareGroups.id, id), shareOwnedBy(owner), isNull(shareGroups.addsTo)))
      .returning();
    if (!gone) return null;
    if (gone.userId && gone.uploadState === 'complete') {
      await tx
        .update(users)
        .set({ usedBytes: sql`greatest(0, ${users.usedBytes} - ${gone.totalBytes})` })
        .where(eq(users.id, gone.userId));
    }
    const gcIds = await scheduleDeletion(tx, [prefix]);
    // Last: the one epoch row stays locked for as short a time as the transaction allows.
    await bumpEpoch(tx, EPOCH.shares);
    return gcIds;
  });
}

/**
 * Removes one item (by path key) from a published share `owner` may manage, in one transaction
 * that shrinks the share's size and the owner's usage, schedules the item's object for deletion
 * and bumps the shares epoch (guests stop seeing it at once). The share's row is locked, so two
 * removals cannot both take "not the last one". The deletion job ids, or why nothing was removed.
 */
export async function deleteShareItem(db: Db, owner: Owner, id: string, key: string): Promise<string[] | 'no_share' | 'pending' | 'no_item' | 'last_item'> {
  return db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: shareGroups.id, userId: shareGroups.userId, uploadState: shareGroups.uploadState })
      .from(shareGroups)
      .where(and(eq(shareGroups.id, id), shareOwnedBy(owner), isNull(shareGroups.addsTo)))
      .for('update');
    if (!group) return 'no_share';
    if (group.uploadState !== 'complete') return 'pending';
    const [{ n }] = await tx.select({ n: sql<string>`count(*)` }).from(shareItems).where(eq(shareItems.groupId, id));
    const [item] = await tx.select().from(shareItems).where(and(eq(shareItems.groupId, id), eq(shareItems.pathKey, key)));
    if (!item) return 'no_item';
    if (Number(n) <= 1) return 'last_item';
    await tx.delete(shareItems).where(eq(shareItems.id, item.id));
    await tx
      .update(shareGroups)
      .set({ totalBytes: sql`greatest(0, ${shareGroups.totalBytes} - ${item.size})`, updatedAt: sql`now()` })
      .where(eq(shareGroups.id, id));
    if (group.userId) {
      await tx.update(users).set({ usedBytes: sql`greatest(0, ${users.usedBytes} - ${item.size})` }).where(eq(users.id, group.userId));
    }
    // Its derived picture (a poster, a thumbnail) goes with it.
    const gcIds = await scheduleDeletion(tx, item.previewKey ? [item.storageKey, item.previewKey] : [item.storageKey]);
    await bumpEpoch(tx, EPOCH.shares);
    return gcIds;
  });
}

/** A share with its items, whoever owns it (the guest page). */
export const findShare = (db: Db, id: string): Promise<ShareWithItems | null> => findShareOwnedBy(db, 'any', id);

export async function findShareGroup(db: Db, id: string): Promise<ShareGroupRow | null> {
  const [g] = await db.select().from(shareGroups).where(eq(shareGroups.id, id));
  return g ?? null;
}

/** The pending session for an (uploadId, storageKey) pair, with its group. */
/**
 * The pending session named by the pair, only when it belongs to `groupId`, that group is
 * still uploading and it is the owner's: ownership and state are part of the WHERE.
 */
export async function findOwnPendingUpload(db: Db, owner: { ownerId: string | null }, ref: { groupId: string; uploadId: string; storageKey: string }) {
  const [row] = await db
    .select({ pending: pendingUploads, group: shareGroups })
    .from(pendingUploads)
    .innerJoin(shareGroups, eq(shareGroups.id, pendingUploads.groupId))
    .where(
      and(
        eq(pendingUploads.uploadId, ref.uploadId),
        eq(pendingUploads.storageKey, ref.storageKey),
        eq(shareGroups.id, ref.groupId),
        eq(shareGroups.uploadState, 'pending'),
        shareOwnedBy(owner),
      ),
    );
  return row ?? null;
}

export async function listPendingUploads(db: Db, groupId: string) {
  return db.select().from(pendingUploads).where(eq(pendingUploads.groupId, groupId)).orderBy(asc(pendingUploads.relativePath));
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

/**
 * The byte path's one query: the share row and the one item at `relativePath` (null when
 * none), through the primary key and the unique (group_id, relative_path) index.
 */
export async function findShareGroupAndItem(
  db: Db,
  id: string,
  relativePath: string,
): Promise<{ group: ShareGroupRow; item: ShareItemRow | null } | null> {
  const [row] = await db
    .select({ group: shareGroups, item: shareItems })
    .from(shareGroups)
    .leftJoin(shareItems, and(eq(shareItems.groupId, shareGroups.id), eq(shareItems.relativePath, relativePath)))
    .where(eq(shareGroups.id, id));
  return row ?? null;
}

/**
 * Adds completed downloads in one transaction of two statements: per share (every item and ZIP
 * download) and per item, each one UPDATE … FROM (VALUES …) however many rows. Rows deleted
 * meanwhile are simply not updated.
 */
export async function addDownloadCounts(db: Db, byShare: Map<string, number>, byItem: Map<string, number>): Promise<void> {
  if (byShare.size === 0 && byItem.size === 0) return;
  const values = (counts: Map<string, number>, idType: 'text' | 'uuid') =>
    sql.join([...counts].map(([id, n]) => sql`(${id}::${sql.raw(idType)}, ${n}::bigint)`), sql`, `);
  await db.transaction(async (tx) => {
    if (byShare.size > 0) {
      await tx.execute(sql`UPDATE ${shareGroups} SET download_count = ${shareGroups.downloadCount} + v.n
        FROM (VALUES ${values(byShare, 'text')}) AS v(id, n) WHERE ${shareGroups.id} = v.id`);
    }
    if (byItem.size > 0) {
      await tx.execute(sql`UPDATE ${shareItems} SET download_count = ${shareItems.downloadCount} + v.n
        FROM (VALUES ${values(byItem, 'uuid')}) AS v(id, n) WHERE ${shareItems.id} = v.id`);
    }
  });
}

/** Caches an item's CRC-32 once the server has read its bytes whole (the ZIP download needs it). */
export async function setShareItemCrc32(db: Db, itemId: string, crc32: number): Promise<void> {
  await db.update(shareItems).set({ crc32 }).where(eq(shareItems.id, itemId));
}
