import 'server-only';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { shareGroups, users, type UserRow } from '../schema';
import { bumpEpoch, EPOCH } from './settings';
import { scheduleDeletion } from './storage-gc';

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.username, username.toLowerCase()));
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** Inserts unless the username exists; null means taken. */
export async function insertUser(
  db: Db,
  values: typeof users.$inferInsert,
): Promise<UserRow | null> {
  const [row] = await db
    .insert(users)
    .values({ ...values, username: values.username.toLowerCase() })
    .onConflictDoNothing({ target: users.username })
    .returning();
  return row ?? null;
}

export async function updateUser(
  db: Db,
  id: string,
  patch: Partial<
    Pick<
      UserRow,
      'displayName' | 'email' | 'phone' | 'role' | 'status' | 'quotaBytes' | 'passwordHash' | 'notifyDownloads' | 'notifyUploads' | 'notifyExpiring' | 'locale' | 'emailVerified' | 'emailTokenHash' | 'emailTokenExpiresAt'
    >
  >,
): Promise<UserRow | null> {
  // A cached session carries its user (lib/auth/session-cache.ts): a change of role or status
  // drops it, in this transaction.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    if (row) await bumpEpoch(tx, EPOCH.sessions);
    return row ?? null;
  });
}

/** A new confirmation token for the address the member has now (null: it changed meanwhile). */
export async function setEmailToken(db: Db, id: string, email: string, fields: Pick<UserRow, 'emailVerified' | 'emailTokenHash' | 'emailTokenExpiresAt'>): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(and(eq(users.id, id), eq(users.email, email)))
    .returning();
  return row ?? null;
}

/**
 * Confirms the address whose unexpired token hashes to `tokenHash`, and spends the token. A
 * cached session carries its user: the epoch is bumped so /api/auth/me shows it at once.
 */
export async function confirmEmailToken(db: Db, tokenHash: string): Promise<UserRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ emailVerified: true, emailTokenHash: null, emailTokenExpiresAt: null, updatedAt: sql`now()` })
      .where(and(eq(users.emailTokenHash, tokenHash), gt(users.emailTokenExpiresAt, sql`now()`)))
      .returning();
    if (row) await bumpEpoch(tx, EPOCH.sessions);
    return row ?? null;
  });
}

/**
 * Stores a member's password hash made again (at another scrypt cost) for the same password,
 * unless the password changed meanwhile (`was` is no longer stored). Not a password change:
 * sessions stay as they are. The sessions epoch is not bumped either, so a cached session keeps
 * its user row with the old hash until it is read again — both are hashes of the same password.
 */
export async function replacePasswordHash(db: Db, id: string, was: string, next: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: next })
    .where(and(eq(users.id, id), eq(users.passwordHash, was)));
}

/**
 * Deletes a user with everything they own in one transaction: the deletion of every share's
 * bytes is recorded (storage_gc), then the shares (items and pending uploads cascade) and the
 * user (sessions cascade) are dropped. Returns the storage_gc ids to run after commit, or null
 * when there is no such user.
 */
export async function deleteUserWithShares(db: Db, id: string, prefixOf: (groupId: string) => string): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    if (!user) return null;
    // Files being added to a share live under that share's prefix and go with its row (cascade).
    const groups = await tx
      .select({ id: shareGroups.id })
      .from(shareGroups)
      .where(and(eq(shareGroups.userId, id), isNull(shareGroups.addsTo)))
      .for('update');
    const gcIds = await scheduleDeletion(tx, groups.map((g) => prefixOf(g.id)));
    if (groups.length) await tx.delete(shareGroups).where(inArray(shareGroups.id, groups.map((g) => g.id)));
    await tx.delete(users).where(eq(users.id, id));
    // Last: the one epoch row stays locked for as short a time as the transaction allows.
    if (groups.length) await bumpEpoch(tx, EPOCH.shares);
    // Its sessions went with it (cascade): so do their cached copies.
    await bumpEpoch(tx, EPOCH.sessions);
    return gcIds;
  });
}
