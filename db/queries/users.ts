import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { users, type UserRow } from '../schema';

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.username, username.toLowerCase()));
  return row ?? null;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  return db.select().from(users).orderBy(users.createdAt, users.username);
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
  patch: Partial<Pick<UserRow, 'displayName' | 'email' | 'phone' | 'role' | 'status' | 'quotaBytes' | 'passwordHash'>>,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}
