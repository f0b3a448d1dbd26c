import 'server-only';
import { arrayContains, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { concepts } from '../schema';

export async function listConcepts(db: Db, tag?: string) {
  return db
    .select()
    .from(concepts)
    .where(tag ? arrayContains(concepts.tags, [tag]) : undefined)
    // Byte order, so PGlite, a PostgreSQL with any locale and a client's sort agree.
    .orderBy(sql`${concepts.id} collate "C"`);
}

export async function findConcept(db: Db, id: string) {
  const [row] = await db.select().from(concepts).where(eq(concepts.id, id));
  return row ?? null;
}

/** Which of these ids exist. */
export async function existingConceptIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: concepts.id }).from(concepts).where(inArray(concepts.id, ids));
  return new Set(rows.map((r) => r.id));
}

/** Inserts unless the id exists; false when it does. */
export async function insertConcept(db: Db, id: string, document: unknown, tags: string[]): Promise<boolean> {
  const rows = await db.insert(concepts).values({ id, document, tags }).onConflictDoNothing({ target: concepts.id }).returning({ id: concepts.id });
  return rows.length > 0;
}

export async function replaceConcept(db: Db, id: string, document: unknown, tags: string[]): Promise<boolean> {
  const rows = await db.update(concepts).set({ document, tags, updatedAt: sql`now()` }).where(eq(concepts.id, id)).returning({ id: concepts.id });
  return rows.length > 0;
}

export async function deleteConceptRow(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(concepts).where(eq(concepts.id, id)).returning({ id: concepts.id });
  return rows.length > 0;
}
