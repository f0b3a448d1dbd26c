import 'server-only';
import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { bumpEpoch, EPOCH } from './settings';
import { shareOwnedBy } from './shares';
import { fileRequests, pendingUploads, shareGroups, shareItems, uploadPartCrcs, users, type ShareGroupRow, type UserRow } from '../schema';
import { insertRows } from './insert-rows';

/** The owner's row, locked until the transaction ends: parallel inits queue on it. */
async function lockUser(tx: Db, userId: string): Promise<UserRow | null> {
  const [owner] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  return owner ?? null;
}

/**
 * Whose unfinished uploads a count covers: the member's own (the caps and quota of their own
 * inits), or their guests' (uploads to their file requests, a budget of its own: issue 39).
 */
export type PendingOf = 'own' | 'guests';
const pendingOf = (userId: string, of: PendingOf) =>
  and(eq(shareGroups.userId, userId), eq(shareGroups.uploadState, 'pending'), of === 'own' ? isNull(shareGroups.requestId) : isNotNull(shareGroups.requestId));

/** Bytes a user has reserved in uploads not yet completed, and how many such uploads. */
export async function reservedBy(db: Db, userId: string, of?: PendingOf): Promise<{ bytes: number; uploads: number }> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${shareGroups.reservedBytes}), 0)`, n: sql<string>`count(*)` })
    .from(shareGroups)
    .where(of ? pendingOf(userId, of) : and(eq(shareGroups.userId, userId), eq(shareGroups.uploadState, 'pending')));
  return { bytes: Number(row?.total ?? 0), uploads: Number(row?.n ?? 0) };
}

/** Files in a user's uploads not yet completed (one multi-part session each). */
export async function pendingFilesOf(db: Db, userId: string, of: PendingOf): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(pendingUploads)
    .innerJoin(shareGroups, eq(shareGroups.id, pendingUploads.groupId))
    .where(pendingOf(userId, of));
  return Number(row?.n ?? 0);
}

async function insertPendingGroup(db: Db, group: typeof shareGroups.$inferInsert): Promise<void> {
  await db.insert(shareGroups).values(group);
}

/** A pending group's password hash, set once the group holds its reservation (hashing comes last). */
export async function setPendingGroupPassword(db: Db, groupId: string, passwordHash: string): Promise<void> {
  await db.update(shareGroups).set({ passwordHash }).where(and(eq(shareGroups.id, groupId), eq(shareGroups.uploadState, 'pending')));
}

export async function insertPendingUploads(db: Db, rows: (typeof pendingUploads.$inferInsert)[]): Promise<void> {
  await insertRows(db, pendingUploads, rows);
}

/**
 * Records `storeUploadId` as the pending file's store upload unless one is recorded already, in
 * one conditional statement: of two first parts racing, one's upload is kept and both get it.
 * Returns the recorded id (the caller's or the earlier one), or null when the pending row is gone.
 */
export async function claimStoreUpload(db: Db, pendingId: string, storeUploadId: string): Promise<string | null> {
  const [row] = await db
    .update(pendingUploads)
    .set({ storeUploadId: sql`coalesce(${pendingUploads.storeUploadId}, ${storeUploadId})` })
    .where(eq(pendingUploads.id, pendingId))
    .returning({ storeUploadId: pendingUploads.storeUploadId });
  return row?.storeUploadId ?? null;
}

/** A group, only when its owner is `ownerId` (null: the Admin Token's own shares). */
export async function findOwnShareGroup(db: Db, id: string, ownerId: string | null): Promise<ShareGroupRow | null> {
  const [g] = await db.select().from(shareGroups).where(and(eq(shareGroups.id, id), shareOwnedBy({ ownerId })));
  return g ?? null;
}

/** Why a guest's upload could not be counted toward its request at publish. */
export class RequestRefusedError extends Error {
  constructor(readonly why: 'request' | 'quota' = 'request') {
    super(`${why} refused the upload`);
  }
}

/**
 * pending → complete, inside the caller's transaction `tx` (lib/shares/publish-group.ts opens it
 * and writes the event): the conditional update decides a race with another complete or an
 * abort (false when it lost), then the items, the usage and the sessions. A guest's upload
 * (`requestId`) is also counted toward its request, on a conditional update that decides races
 * for its last slot: when the request is closed, expired, full or gone meanwhile this throws
 * RequestRefusedError('request') so the caller rolls back; when the owner's quota has no room
 * for it beside their own uploads, RequestRefusedError('quota').
 */
export async function completePendingGroup(
  tx: Db,
  group: ShareGroupRow,
  items: Omit<typeof shareItems.$inferInsert, 'groupId'>[],
  opts: { status?: 'online' | 'offline'; requestId?: string | null } = {},
): Promise<boolean> {
  const total = items.reduce((n, it) => n + Number(it.size), 0);
  const [row] = await tx
    .update(shareGroups)
    .set({ uploadState: 'complete', status: opts.status ?? 'online', totalBytes: total, reservedBytes: 0, uploadTokenHash: null, updatedAt: sql`now()` })
    .where(and(eq(shareGroups.id, group.id), eq(shareGroups.uploadState, 'pending')))
    .returning({ id: shareGroups.id });
  if (!row) return false;
  if (opts.requestId) {
    const counted = await tx
      .update(fileRequests)
      .set({ uploadCount: sql`${fileRequests.uploadCount} + 1`, receivedBytes: sql`${fileRequests.receivedBytes} + ${total}` })
      .where(
        and(
          eq(fileRequests.id, opts.requestId),
          eq(fileRequests.status, 'open'),
          sql`(${fileRequests.expiresAt} is null or ${fileRequests.expiresAt} > now())`,
          sql`(${fileRequests.maxUploads} is null or ${fileRequests.uploadCount} < ${fileRequests.maxUploads})`,
        ),
      )
      .returning({ id: fileRequests.id });
    if (counted.length === 0) throw new RequestRefusedError();
  }
  // A guest's files must fit beside what the owner holds and has reserved for their own
  // uploads: guests reserve from a budget of their own, so the owner's uploads come first.
  if (opts.requestId && group.userId) {
    const owner = await lockUser(tx, group.userId);
    const own = await reservedBy(tx, group.userId, 'own');
    if (!owner || Number(owner.usedBytes) + own.bytes + total > Number(owner.quotaBytes)) throw new RequestRefusedError('quota');
  }
  await insertRows(tx, shareItems, items.map((it) => ({ ...it, groupId: group.id })));
  await tx.delete(pendingUploads).where(eq(pendingUploads.groupId, group.id));
  if (group.userId) {
    await tx.update(users).set({ usedBytes: sql`${users.usedBytes} + ${total}` }).where(eq(users.id, group.userId));
  }
  return true;
}

/** What a published share holds now: its files, bytes and which of `pathKeys` it already has. */
export async function shareContents(db: Db, shareId: string, pathKeys: string[]): Promise<{ files: number; bytes: number; taken: string[] }> {
  const [row] = await db
    .select({ n: sql<string>`count(*)`, bytes: sql<string>`coalesce(sum(${shareItems.size}), 0)` })
    .from(shareItems)
    .where(eq(shareItems.groupId, shareId));
  const taken = pathKeys.length
    ? await db.select({ relativePath: shareItems.relativePath }).from(shareItems).where(and(eq(shareItems.groupId, shareId), inArray(shareItems.pathKey, pathKeys)))
    : [];
  return { files: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0), taken: taken.map((t) => t.relativePath) };
}

/**
 * Completes files being added to a published share: under a lock on the share's row, the
 * share's limits and path uniqueness are checked again (`check` throws to refuse; so does a
 * share deleted meanwhile, with `gone`),
 * the addition's row is marked complete (conditional: of a complete and an abort exactly one
 * wins), the items join the share, the owner's usage and the share's size grow, and guests'
 * cached views drop — all in one transaction, so guests see every added file at once or none.
 */
export async function publishAddition(
  db: Db,
  addition: ShareGroupRow,
  items: Omit<typeof shareItems.$inferInsert, 'groupId'>[],
  check: (now: { files: number; bytes: number; taken: string[] }) => void,
  gone: () => Error,
): Promise<boolean> {
  const shareId = addition.addsTo!;
  const total = items.reduce((n, it) => n + Number(it.size), 0);
  return db.transaction(async (tx) => {
    const [share] = await tx
      .select({ id: shareGroups.id })
      .from(shareGroups)
      .where(and(eq(shareGroups.id, shareId), eq(shareGroups.uploadState, 'complete')))
      .for('update');
    if (!share) throw gone();
    const [row] = await tx
      .update(shareGroups)
      .set({ uploadState: 'complete', reservedBytes: 0, updatedAt: sql`now()` })
      .where(and(eq(shareGroups.id, addition.id), eq(shareGroups.uploadState, 'pending')))
      .returning({ id: shareGroups.id });
    if (!row) return false;
    check(await shareContents(tx, shareId, items.map((it) => it.pathKey)));
    await insertRows(tx, shareItems, items.map((it) => ({ ...it, groupId: shareId })));
    await tx.delete(pendingUploads).where(eq(pendingUploads.groupId, addition.id));
    await tx
      .update(shareGroups)
      .set({ totalBytes: sql`${shareGroups.totalBytes} + ${total}`, updatedAt: sql`now()` })
      .where(eq(shareGroups.id, shareId));
    if (addition.userId) await tx.update(users).set({ usedBytes: sql`${users.usedBytes} + ${total}` }).where(eq(users.id, addition.userId));
    // Last: the one epoch row stays locked for as short a time as the transaction allows.
    await bumpEpoch(tx, EPOCH.shares);
    return true;
  });
}

/**
 * The rows of completed additions (files added to a share) older than `olderThanMs`: they only
 * kept a repeated complete answering 409, and their files belong to the share now.
 */
export async function purgeCompletedAdditions(db: Db, olderThanMs: number): Promise<number> {
  const gone = await db
    .delete(shareGroups)
    .where(
      and(
        isNotNull(shareGroups.addsTo),
        eq(shareGroups.uploadState, 'complete'),
        lt(shareGroups.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .returning({ id: shareGroups.id });
  return gone.length;
}

export async function stalePendingGroups(db: Db, olderThanMs: number, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: shareGroups.id })
    .from(shareGroups)
    .where(and(eq(shareGroups.uploadState, 'pending'), lt(shareGroups.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`)))
    .orderBy(shareGroups.createdAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * A guest's upload that has not started (no part sent or asked for): its updated_at is still its
 * created_at, since markGuestUploadStarted moves it once, at the first part.
 */
const notStarted = () => and(isNotNull(shareGroups.requestId), sql`${shareGroups.updatedAt} = ${shareGroups.createdAt}`);

/** Guests' uploads that have not started within `idleMs` of their init (issue 39). */
export async function idleGuestGroups(db: Db, idleMs: number, limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: shareGroups.id })
    .from(shareGroups)
    .where(and(eq(shareGroups.uploadState, 'pending'), notStarted(), lt(shareGroups.createdAt, sql`now() - make_interval(secs => ${idleMs / 1000})`)))
    .orderBy(shareGroups.createdAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A guest's upload sends its first part: from now on only PENDING_UPLOAD_TTL_HOURS ends it. */
export async function markGuestUploadStarted(db: Db, groupId: string): Promise<void> {
  await db
    .update(shareGroups)
    .set({ updatedAt: sql`greatest(now(), ${shareGroups.createdAt} + interval '1 millisecond')` })
    .where(and(eq(shareGroups.id, groupId), eq(shareGroups.uploadState, 'pending'), notStarted()));
}

/**
 * Deletes a group only while it is still pending (with `onlyIfIdle`, only while a guest's upload
 * has not started either): its id and the share it adds to, or null when it was not.
 */
export async function deletePendingGroup(db: Db, id: string, opts: { onlyIfIdle?: boolean } = {}): Promise<{ id: string; addsTo: string | null } | null> {
  const [gone] = await db
    .delete(shareGroups)
    .where(and(eq(shareGroups.id, id), eq(shareGroups.uploadState, 'pending'), opts.onlyIfIdle ? notStarted() : undefined))
    .returning({ id: shareGroups.id, addsTo: shareGroups.addsTo });
  return gone ?? null;
}

/** What an owner already holds in unfinished uploads: reserved bytes, uploads and files. */
export interface HeldByOwner {
  bytes: number;
  uploads: number;
  files: number;
}

/**
 * Inserts a pending share group; with `owner`, under a lock on the owner's row (parallel inits
 * queue on it, so they cannot both take the last slot or byte): `check` sees the owner's row
 * and what it already holds (both null when the owner is gone), and throws to refuse.
 */
export async function reservePendingGroup(
  db: Db,
  group: typeof shareGroups.$inferInsert,
  owner: { id: string; check: (row: UserRow | null, held: HeldByOwner | null) => void } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (owner) {
      const row = await lockUser(tx, owner.id);
      // The member's own uploads only: guests' uploads to their requests never take these slots or bytes.
      owner.check(row, row && { ...(await reservedBy(tx, owner.id, 'own')), files: await pendingFilesOf(tx, owner.id, 'own') });
    }
    await insertPendingGroup(tx, group);
  });
}

export type PartCrcRow = typeof uploadPartCrcs.$inferSelect;

/**
 * Records the CRC-32 of a part the server just stored. False when the pending upload is gone
 * meanwhile (completed or cancelled): its CRCs no longer matter.
 */
export async function recordPartCrc(db: Db, row: PartCrcRow): Promise<boolean> {
  try {
    await db
      .insert(uploadPartCrcs)
      .values(row)
      .onConflictDoUpdate({ target: [uploadPartCrcs.pendingUploadId, uploadPartCrcs.partNumber], set: { etag: row.etag, size: row.size, crc32: row.crc32 } });
    return true;
  } catch (e) {
    if (pgCode(e) === '23503') return false; // foreign key: the pending row was deleted
    throw e;
  }
}

/**
 * Records many parts' CRC-32s in one statement (the last of each part when one was sent twice),
 * skipping parts whose pending upload is gone meanwhile (completed or cancelled).
 */
export async function recordPartCrcs(db: Db, rows: PartCrcRow[]): Promise<void> {
  const last = new Map(rows.map((r) => [`${r.pendingUploadId}:${r.partNumber}`, r]));
  const values = sql.join(
    [...last.values()].map((r) => sql`(${r.pendingUploadId}::uuid, ${r.partNumber}::int, ${r.etag}::text, ${r.size}::bigint, ${r.crc32}::bigint)`),
    sql`, `,
  );
  try {
    await db.execute(sql`insert into ${uploadPartCrcs} (pending_upload_id, part_number, etag, size, crc32)
      select v.* from (values ${values}) as v(pending_upload_id, part_number, etag, size, crc32)
      where exists (select 1 from ${pendingUploads} p where p.id = v.pending_upload_id)
      on conflict (pending_upload_id, part_number) do update set etag = excluded.etag, size = excluded.size, crc32 = excluded.crc32`);
  } catch (e) {
    // A pending row deleted between the check and the insert: one by one, dropping that one.
    if (pgCode(e) !== '23503') throw e;
    for (const r of last.values()) await recordPartCrc(db, r);
  }
}

/** Recorded part CRCs of the given pending uploads, by pending upload id. */
export async function partCrcsOf(db: Db, pendingIds: string[]): Promise<Map<string, PartCrcRow[]>> {
  const out = new Map<string, PartCrcRow[]>();
  for (let i = 0; i < pendingIds.length; i += 500) {
    const rows = await db.select().from(uploadPartCrcs).where(inArray(uploadPartCrcs.pendingUploadId, pendingIds.slice(i, i + 500)));
    for (const r of rows) {
      const list = out.get(r.pendingUploadId);
      if (list) list.push(r);
      else out.set(r.pendingUploadId, [r]);
    }
  }
  return out;
}

const pgCode = (e: unknown): string | undefined => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code;
};
