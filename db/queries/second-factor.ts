import 'server-only';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { recoveryCodes, sessions, signInChallenges, users, type SignInChallengeRow } from '../schema';
import { bumpEpoch, EPOCH } from './settings';

/** A TOTP secret set up but not active yet (a new setup replaces an unconfirmed one; never an active one). */
export async function storePendingTotpSecret(db: Db, userId: string, encrypted: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: encrypted, totpLastStep: null })
    .where(and(eq(users.id, userId), eq(users.totpEnabled, false)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/**
 * Takes a time step for the user's TOTP: succeeds only for a step later than every one accepted
 * before, in one statement (two requests with one code: one wins). `enabled` is the state the
 * secret must be in (false while enrolling).
 */
export async function claimTotpStep(db: Db, userId: string, step: number, enabled: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(users.id, userId),
        eq(users.totpEnabled, enabled),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1;
}

/**
 * Turns TOTP on with its recovery code hashes, and ends the user's sessions but `keepTokenHash`
 * (a new second factor ends the others): one transaction.
 */
export async function enableTotp(db: Db, userId: string, codeHashes: string[], keepTokenHash: string | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ totpEnabled: true })
      .where(and(eq(users.id, userId), eq(users.totpEnabled, false), sql`${users.totpSecret} is not null`))
      .returning({ id: users.id });
    if (rows.length !== 1) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
    await endOtherSessions(tx, userId, keepTokenHash);
    return true;
  });
}

export async function disableTotp(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ totpEnabled: false, totpSecret: null, totpLastStep: null }).where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  });
}

/** Uses up one recovery code; false when it is not one of the user's (or was used). */
export async function consumeRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash)))
    .returning({ userId: recoveryCodes.userId });
  return rows.length === 1;
}

export async function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  return Number(row?.n ?? 0);
}

export async function insertChallenge(db: Db, c: { tokenHash: string; userId: string; kind: 'required' | 'enroll'; method: string; expiresAt: Date }): Promise<void> {
  await db.insert(signInChallenges).values(c);
}

export async function findLiveChallenge(db: Db, tokenHash: string): Promise<SignInChallengeRow | null> {
  const [row] = await db
    .select()
    .from(signInChallenges)
    .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, sql`now()`)));
  return row ?? null;
}

/**
 * Counts one try of a live challenge that has tries left, atomically; null when it has none
 * left (or is gone or expired).
 */
export async function takeChallengeTry(db: Db, tokenHash: string, maxTries: number): Promise<SignInChallengeRow | null> {
  const [row] = await db
    .update(signInChallenges)
    .set({ tries: sql`${signInChallenges.tries} + 1` })
    .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, sql`now()`), lt(signInChallenges.tries, maxTries)))
    .returning();
  return row ?? null;
}

/** Used once: a passed challenge is deleted; false when another request used it first. */
export async function consumeChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db.delete(signInChallenges).where(eq(signInChallenges.tokenHash, tokenHash)).returning({ h: signInChallenges.tokenHash });
  return rows.length === 1;
}

export async function purgeExpiredChallenges(db: Db): Promise<void> {
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, sql`now()`));
}

/** Ends (expires) the user's live sessions except one, with the sessions epoch bumped. */
export async function endOtherSessions(tx: Db, userId: string, keepTokenHash: string | null): Promise<void> {
  const keep = keepTokenHash === null ? sql`true` : sql`${sessions.tokenHash} <> ${keepTokenHash}`;
  await tx
    .update(sessions)
    .set({ expiresAt: sql`least(${sessions.expiresAt}, now())` })
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`), keep));
  await bumpEpoch(tx, EPOCH.sessions);
}
