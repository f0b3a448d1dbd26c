import 'server-only';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { sessions, users } from '../schema';
import { bumpEpoch, EPOCH } from './settings';

export async function insertSession(
  db: Db,
  s: {
    tokenHash: string;
    kind: 'member' | 'admin';
    userId: string | null;
    credentialTag: string | null;
    expiresAt: Date;
    method?: string;
    userAgent?: string;
    network?: string;
  },
): Promise<void> {
  await db.insert(sessions).values(s);
}

/** The live session for a token hash, with its user when it is a member session. */
export async function findLiveSession(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, sql`now()`)));
  return row ?? null;
}

/**
 * Ending sessions bumps the sessions epoch in the same transaction: the chunk route's cache of
 * resolved sessions (lib/auth/session-cache.ts) drops them here as it commits, on every other
 * instance at its next reading of the epoch.
 */
export async function endSessionByHash(db: Db, tokenHash: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Ended, not deleted: kept as an expired session for 30 days (purgeExpiredSessions), an app
    // still sending it after a sign-out is refused without counting as a guess (issue 39, info).
    await tx.update(sessions).set({ expiresAt: sql`least(${sessions.expiresAt}, now())` }).where(eq(sessions.tokenHash, tokenHash));
    await bumpEpoch(tx, EPOCH.sessions);
  });
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await bumpEpoch(tx, EPOCH.sessions);
  });
}

export async function deleteAdminSessions(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(sessions).where(and(eq(sessions.kind, 'admin'), isNull(sessions.userId)));
    await bumpEpoch(tx, EPOCH.sessions);
  });
}

/**
 * Sessions expired more than 30 days ago. Until then an expired session is still known: an app
 * polling with it is told 401 without the poll counting as a guess (lib/http/guards.ts).
 */
export async function purgeExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now() - interval '30 days'`));
}

/** Whether this server issued the token's session, live or not (expired, or under an older Admin Token). */
export async function sessionIssued(db: Db, tokenHash: string): Promise<boolean> {
  const [row] = await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
  return row !== undefined;
}

/** A user's live sessions, newest first (Settings → Sessions). */
export async function listLiveUserSessions(db: Db, userId: string) {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      method: sessions.method,
      userAgent: sessions.userAgent,
      network: sessions.network,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/** Ends one live session of the user by its id; false when it is not theirs (or not live). */
export async function endUserSessionById(db: Db, userId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(sessions)
      .set({ expiresAt: sql`least(${sessions.expiresAt}, now())` })
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
      .returning({ id: sessions.id });
    if (rows.length === 1) await bumpEpoch(tx, EPOCH.sessions);
    return rows.length === 1;
  });
}

/**
 * Records a session's use: its time and network, only when the stored time is a minute old or
 * the network changed (one cheap conditional write; lib/auth/session-use.ts calls it at most
 * once a minute per session and process).
 */
export async function touchSession(db: Db, tokenHash: string, network: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastUsedAt: sql`now()`, network })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        or(isNull(sessions.lastUsedAt), lt(sessions.lastUsedAt, sql`now() - interval '1 minute'`), sql`${sessions.network} <> ${network}`),
      ),
    );
}
