import 'server-only';
import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { fileRequests, shareGroups, users, type FileRequestRow, type ShareGroupRow, type UserRow } from '../schema';
import { pendingFilesOf, reservedBy, type HeldByOwner } from './uploads';
import { containing, newestFirst, ownerNameMatches, type Page, type PageQuery } from './lists';
import { ownedBy, type Owner } from './owner';

export interface RequestWithOwner {
  request: FileRequestRow;
  username: string;
  /** The owner's display name, else username. */
  ownerName: string;
  ownerRole: UserRow['role'];
  ownerStatus: UserRow['status'];
}

const withOwner = {
  request: fileRequests,
  username: users.username,
  displayName: users.displayName,
  ownerRole: users.role,
  ownerStatus: users.status,
};

type Joined = { request: FileRequestRow; username: string; displayName: string; ownerRole: UserRow['role']; ownerStatus: UserRow['status'] };
const toWithOwner = (r: Joined): RequestWithOwner => ({
  request: r.request,
  username: r.username,
  ownerName: r.displayName || r.username,
  ownerRole: r.ownerRole,
  ownerStatus: r.ownerStatus,
});

/** Whose requests a query reaches: one member's, or `'any'` (the administrator). */
const mine = (owner: Owner) => ownedBy(fileRequests.userId, owner);

export async function insertRequest(db: Db, row: typeof fileRequests.$inferInsert): Promise<void> {
  await db.insert(fileRequests).values(row);
}

export async function findRequest(db: Db, id: string, owner: Owner = 'any'): Promise<RequestWithOwner | null> {
  const [r] = await db.select(withOwner).from(fileRequests).innerJoin(users, eq(users.id, fileRequests.userId)).where(and(eq(fileRequests.id, id), mine(owner)));
  return r ? toWithOwner(r) : null;
}

/** A page of requests, newest first (keyset on created_at, id). */
export async function pageRequests(db: Db, owner: Owner, p: PageQuery): Promise<Page<RequestWithOwner & { at: string }>> {
  const q = p.q ? containing(p.q) : null;
  const rows = await db
    .select({ ...withOwner, at: sql<string>`${fileRequests.createdAt}::text` })
    .from(fileRequests)
    .innerJoin(users, eq(users.id, fileRequests.userId))
    .where(
      and(
        mine(owner),
        p.after === null ? undefined : sql`(${fileRequests.createdAt}, ${fileRequests.id}) < (${p.after.at}::timestamptz, ${p.after.key}::text)`,
        q ? or(sql`${fileRequests.note} ilike ${q}`, sql`${fileRequests.id} ilike ${q}`, ownerNameMatches(fileRequests.userId, q)) : undefined,
      ),
    )
    .orderBy(...newestFirst(fileRequests.createdAt, fileRequests.id, p.q))
    .limit(p.limit + 1);
  const page = rows.slice(0, p.limit).map((r) => ({ ...toWithOwner(r), at: r.at }));
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > p.limit && last ? { at: last.at, key: last.request.id } : null };
}

export type RequestPatch = Partial<
  Pick<FileRequestRow, 'note' | 'passwordHash' | 'expiresAt' | 'status' | 'maxFiles' | 'maxBytes' | 'maxUploads' | 'requireName' | 'allowedTypes'>
>;

export async function updateRequestRow(db: Db, owner: Owner, id: string, patch: RequestPatch): Promise<boolean> {
  const rows = await db
    .update(fileRequests)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(fileRequests.id, id), mine(owner)))
    .returning({ id: fileRequests.id });
  return rows.length > 0;
}

export async function deleteRequestRow(db: Db, owner: Owner, id: string): Promise<boolean> {
  const rows = await db.delete(fileRequests).where(and(eq(fileRequests.id, id), mine(owner))).returning({ id: fileRequests.id });
  return rows.length > 0;
}

/** The pending guest uploads of a request (to discard them when it is deleted). */
export async function pendingGroupsOfRequest(db: Db, requestId: string): Promise<string[]> {
  const rows = await db
    .select({ id: shareGroups.id })
    .from(shareGroups)
    .where(and(eq(shareGroups.requestId, requestId), eq(shareGroups.uploadState, 'pending')));
  return rows.map((r) => r.id);
}

/** The pending group an upload token (its SHA-256) names; null once completed or discarded. */
export async function findGroupByUploadToken(db: Db, tokenHash: string): Promise<ShareGroupRow | null> {
  const [g] = await db
    .select()
    .from(shareGroups)
    .where(and(eq(shareGroups.uploadTokenHash, tokenHash), eq(shareGroups.uploadState, 'pending')));
  return g ?? null;
}

/**
 * What a guest's init is checked against, under locks on the request and its owner: the
 * request's unfinished uploads, every byte the owner has reserved (their own and their guests'),
 * and what guests hold across all of the owner's requests (the guests' own budget).
 */
export interface GuestReservationState {
  request: FileRequestRow;
  owner: UserRow;
  pendingUploads: number;
  ownerReserved: { bytes: number; uploads: number };
  guestsHeld: HeldByOwner;
}

/**
 * Inserts a guest's pending group under locks on the request's row and then the owner's (the
 * same order as publishing, so parallel inits queue instead of both taking the last slot):
 * `check` sees the request as it is now and what is reserved (GuestReservationState).
 */
export async function reserveGuestGroup(
  db: Db,
  group: typeof shareGroups.$inferInsert,
  requestId: string,
  check: (now: GuestReservationState | null) => void,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [request] = await tx.select().from(fileRequests).where(eq(fileRequests.id, requestId)).for('update');
    const [owner] = request ? await tx.select().from(users).where(eq(users.id, request.userId)).for('update') : [];
    if (!request || !owner) return check(null);
    const [pending] = await tx
      .select({ n: count() })
      .from(shareGroups)
      .where(and(eq(shareGroups.requestId, requestId), eq(shareGroups.uploadState, 'pending')));
    const guests = await reservedBy(tx, owner.id, 'guests');
    check({
      request,
      owner,
      pendingUploads: Number(pending?.n ?? 0),
      ownerReserved: await reservedBy(tx, owner.id),
      guestsHeld: { ...guests, files: await pendingFilesOf(tx, owner.id, 'guests') },
    });
    await tx.insert(shareGroups).values(group);
  });
}
