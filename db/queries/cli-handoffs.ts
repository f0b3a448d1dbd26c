import 'server-only';
import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { cliHandoffs, users, type UserRow } from '../schema';

export async function insertCliHandoff(db: Db, row: { deviceHash: string; userCodeHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(cliHandoffs).values(row);
}

/** Binds a live, not yet approved hand-off to the member approving it; false when there is none. */
export async function approveCliHandoff(db: Db, userCodeHash: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(cliHandoffs)
    .set({ userId, approvedAt: sql`now()` })
    .where(and(eq(cliHandoffs.userCodeHash, userCodeHash), isNull(cliHandoffs.userId), isNull(cliHandoffs.consumedAt), gt(cliHandoffs.expiresAt, sql`now()`)))
    .returning({ deviceHash: cliHandoffs.deviceHash });
  return rows.length === 1;
}

export type HandoffState = { state: 'unknown' } | { state: 'pending' } | { state: 'approved'; user: UserRow };

/**
 * The CLI's poll: an approved hand-off is taken in one statement (two polls: one wins), and
 * answers its member; a live one not approved yet is pending; anything else is unknown.
 */
export async function takeCliHandoff(db: Db, deviceHash: string): Promise<HandoffState> {
  const [taken] = await db
    .update(cliHandoffs)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(cliHandoffs.deviceHash, deviceHash), isNotNull(cliHandoffs.userId), isNull(cliHandoffs.consumedAt), gt(cliHandoffs.expiresAt, sql`now()`)))
    .returning({ userId: cliHandoffs.userId });
  if (taken?.userId) {
    const [user] = await db.select().from(users).where(eq(users.id, taken.userId));
    return user ? { state: 'approved', user } : { state: 'unknown' };
  }
  const [live] = await db
    .select({ deviceHash: cliHandoffs.deviceHash })
    .from(cliHandoffs)
    .where(and(eq(cliHandoffs.deviceHash, deviceHash), isNull(cliHandoffs.userId), gt(cliHandoffs.expiresAt, sql`now()`)));
  return live ? { state: 'pending' } : { state: 'unknown' };
}

export async function purgeExpiredCliHandoffs(db: Db): Promise<void> {
  await db.delete(cliHandoffs).where(lt(cliHandoffs.expiresAt, sql`now()`));
}
