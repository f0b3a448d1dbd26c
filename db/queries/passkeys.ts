import 'server-only';
import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { passkeys, users, webauthnChallenges, type PasskeyRow, type WebauthnChallengeRow } from '../schema';

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(passkeys).where(eq(passkeys.userId, userId));
  return Number(row?.n ?? 0);
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row ?? null;
}

/** A new passkey; null when the credential is registered already (to this account or another). */
export async function insertPasskey(
  db: Db,
  v: { userId: string; credentialId: string; publicKey: string; counter: number; transports: string; name: string; backedUp: boolean },
): Promise<PasskeyRow | null> {
  const [row] = await db.insert(passkeys).values(v).onConflictDoNothing().returning();
  return row ?? null;
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning();
  return row ?? null;
}

/**
 * Removes one of the user's passkeys unless it is their last and `mayBeLast` is false ('last'
 * then), with the user's row locked: two removals at once cannot both see another one left.
 */
export async function deletePasskey(db: Db, userId: string, id: string, mayBeLast: boolean): Promise<'deleted' | 'not_found' | 'last'> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const mine = await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId));
    if (!mine.some((p) => p.id === id)) return 'not_found';
    if (mine.length === 1 && !mayBeLast) return 'last';
    await tx.delete(passkeys).where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)));
    return 'deleted';
  });
}

/**
 * Records a use: the new signature counter and last_used_at, only while the stored counter is
 * still the one the answer was checked against (two answers with one count: one wins).
 */
export async function recordPasskeyUse(db: Db, id: string, oldCounter: number, newCounter: number): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: sql`now()` })
    .where(and(eq(passkeys.id, id), eq(passkeys.counter, oldCounter)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}

export async function insertWebauthnChallenge(
  db: Db,
  c: { challengeHash: string; purpose: WebauthnChallengeRow['purpose']; userId: string | null; signInChallengeHash: string | null; expiresAt: Date },
): Promise<void> {
  await db.insert(webauthnChallenges).values(c);
}

/** Takes a live challenge, once: it is deleted whether or not the answer then verifies. */
export async function consumeWebauthnChallenge(db: Db, challengeHash: string): Promise<WebauthnChallengeRow | null> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.challengeHash, challengeHash), gt(webauthnChallenges.expiresAt, sql`now()`)))
    .returning();
  return row ?? null;
}

export async function purgeExpiredWebauthnChallenges(db: Db): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
}
