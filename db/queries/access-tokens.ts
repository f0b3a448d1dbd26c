import 'server-only';
import { and, desc, eq, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { accessTokens, users, type AccessTokenRow } from '../schema';
import { containing } from './lists';
import type { UsPosition } from './lists';
import { ownedBy, type Owner } from './owner';

/** Whose tokens a query reaches: a user's, or (null) those made in an Admin Token session. */
const mine = (owner: Owner) => ownedBy(accessTokens.userId, owner);

export async function insertAccessToken(db: Db, row: typeof accessTokens.$inferInsert): Promise<AccessTokenRow> {
  const [created] = await db.insert(accessTokens).values(row).returning();
  return created;
}

/** The unexpired token of a secret's hash, with its owner's current row (null for an Admin Token session's). */
export async function findLiveAccessToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ token: accessTokens, user: users })
    .from(accessTokens)
    .leftJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.tokenHash, tokenHash), or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, sql`now()`))));
  return row ?? null;
}

/** One page of an owner's tokens, newest first; `q` is a substring of the name. */
export async function listAccessTokensPage(db: Db, owner: Owner, page: { limit: number; after?: UsPosition; q?: string }) {
  const conditions: (SQL | undefined)[] = [mine(owner)];
  if (page.after) {
    const { createdAtUs, id } = page.after;
    conditions.push(sql`(${accessTokens.createdAt}, ${accessTokens.id}) < (timestamptz 'epoch' + ${createdAtUs}::bigint * interval '1 microsecond', ${id}::uuid)`);
  }
  if (page.q) conditions.push(ilike(accessTokens.name, containing(page.q)));
  return db
    .select({ token: accessTokens, createdAtUs: sql<string>`(extract(epoch from ${accessTokens.createdAt}) * 1000000)::bigint::text` })
    .from(accessTokens)
    .where(and(...conditions))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id))
    .limit(page.limit);
}

/** Deletes one of the owner's tokens; false when it is not theirs or does not exist. */
export async function deleteAccessToken(db: Db, owner: Owner, id: string): Promise<boolean> {
  const gone = await db.delete(accessTokens).where(and(eq(accessTokens.id, id), mine(owner))).returning({ id: accessTokens.id });
  return gone.length > 0;
}

export async function recordAccessTokenUse(db: Db, id: string, ip: string): Promise<void> {
  await db.update(accessTokens).set({ lastUsedAt: sql`now()`, lastUsedIp: ip }).where(eq(accessTokens.id, id));
}

/**
 * Every access token of a member: an administrator's password reset ends them with the sessions
 * (issue 39, item 6), as an intruder's token would otherwise outlive the reset. Tokens are read
 * from the database at each request, so none is cached past this.
 */
export async function deleteUserAccessTokens(db: Db, userId: string): Promise<void> {
  await db.delete(accessTokens).where(eq(accessTokens.userId, userId));
}

/** Tokens made in Admin Token sessions: they end with the Admin Token they were made under. */
export async function deleteAdminSessionTokens(db: Db): Promise<void> {
  await db.delete(accessTokens).where(isNull(accessTokens.userId));
}

