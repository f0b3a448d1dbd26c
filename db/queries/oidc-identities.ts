import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { oidcIdentities, users, type OidcIdentityRow, type UserRow } from '../schema';

/** The account an identity (`iss` + `sub`) is linked to, with the identity; null when none is. */
export async function findIdentity(db: Db, issuer: string, subject: string): Promise<{ identity: OidcIdentityRow; user: UserRow } | null> {
  const [row] = await db
    .select({ identity: oidcIdentities, user: users })
    .from(oidcIdentities)
    .innerJoin(users, eq(users.id, oidcIdentities.userId))
    .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
  return row ?? null;
}

export async function findUserIdentity(db: Db, userId: string, issuer: string): Promise<OidcIdentityRow | null> {
  const [row] = await db
    .select()
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)));
  return row ?? null;
}

/** Links unless the identity, or an identity of this provider for the account, exists: null then. */
export async function insertIdentity(db: Db, v: { userId: string; issuer: string; subject: string; email: string }): Promise<OidcIdentityRow | null> {
  const [row] = await db
    .insert(oidcIdentities)
    .values({ ...v, lastLoginAt: sql`now()` })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function touchIdentity(db: Db, id: string, email: string): Promise<void> {
  await db.update(oidcIdentities).set({ email, lastLoginAt: sql`now()` }).where(eq(oidcIdentities.id, id));
}

/** Unlinks the account's identity of this provider; whether there was one. */
export async function deleteUserIdentity(db: Db, userId: string, issuer: string): Promise<boolean> {
  const rows = await db
    .delete(oidcIdentities)
    .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)))
    .returning({ id: oidcIdentities.id });
  return rows.length > 0;
}

/** Whether the account has an identity of any provider linked (a way in without a password). */
export async function hasAnyIdentity(db: Db, userId: string): Promise<boolean> {
  const rows = await db.select({ id: oidcIdentities.id }).from(oidcIdentities).where(eq(oidcIdentities.userId, userId)).limit(1);
  return rows.length === 1;
}
