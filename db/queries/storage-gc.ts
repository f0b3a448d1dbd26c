import 'server-only';
import { eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { storageGc } from '../schema';

export async function scheduleDeletion(db: Db, prefixes: string[], notBefore?: Date): Promise<string[]> {
  if (prefixes.length === 0) return [];
  const rows = await db
    .insert(storageGc)
    .values(prefixes.map((prefix) => ({ prefix, notBefore: notBefore ?? sql`now()` })))
    .returning({ id: storageGc.id });
  return rows.map((r) => r.id);
}

export async function cancelDeletion(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(storageGc).where(inArray(storageGc.id, ids));
}

/**
 * Leases due deletions for `leaseSeconds` (instances skip each other's rows); the caller
 * deletes the bytes, then the row. A crash leaves the row to be leased again.
 */
export async function leaseDueDeletions(db: Db, limit: number, leaseSeconds: number, ids?: string[]) {
  const due = db
    .select({ id: storageGc.id })
    .from(storageGc)
    .where(ids ? inArray(storageGc.id, ids) : lte(storageGc.notBefore, sql`now()`))
    .orderBy(storageGc.notBefore)
    .limit(limit)
    // The janitor skips rows another lease holds; a request running its own deletions (ids)
    // waits for the janitor's lease statement instead, then runs them itself: else a DELETE
    // could answer before its bytes were gone (the janitor still deleting them).
    .for('update', ids ? {} : { skipLocked: true });
  return db
    .update(storageGc)
    .set({ notBefore: sql`now() + make_interval(secs => ${leaseSeconds})`, attempts: sql`${storageGc.attempts} + 1` })
    .where(inArray(storageGc.id, due))
    .returning({ id: storageGc.id, prefix: storageGc.prefix });
}

export async function finishDeletion(db: Db, id: string): Promise<void> {
  await db.delete(storageGc).where(eq(storageGc.id, id));
}
