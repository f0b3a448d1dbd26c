import 'server-only';
import { and, desc, eq, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { auditLog, storageDaily, users, type AuditRow } from '../schema';
import { containing } from './lists';
import type { UsPosition } from './lists';

export async function insertAudit(db: Db, row: typeof auditLog.$inferInsert): Promise<void> {
  await db.insert(auditLog).values(row);
}

/** A page of the audit log, newest first, by action and/or actor (a substring). */
export async function listAuditPage(
  db: Db,
  filter: { action?: string; actor?: string },
  page: { limit: number; after?: UsPosition },
): Promise<{ row: AuditRow; createdAtUs: string }[]> {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actor) conditions.push(ilike(auditLog.actor, containing(filter.actor)));
  if (page.after) {
    const { createdAtUs, id } = page.after;
    conditions.push(sql`(${auditLog.createdAt}, ${auditLog.id}) < (timestamptz 'epoch' + ${createdAtUs}::bigint * interval '1 microsecond', ${id}::uuid)`);
  }
  return db
    .select({ row: auditLog, createdAtUs: sql<string>`(extract(epoch from ${auditLog.createdAt}) * 1000000)::bigint::text` })
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit);
}

export async function purgeOldAudit(db: Db, days: number): Promise<void> {
  await db.delete(auditLog).where(lt(auditLog.createdAt, sql`now() - make_interval(days => ${days})`));
}

/** Today's (UTC) stored bytes of every member, replacing an earlier snapshot of today. */
export async function snapshotStorage(db: Db): Promise<void> {
  await db.execute(sql`INSERT INTO ${storageDaily} (day, user_id, bytes)
    SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), id, used_bytes FROM ${users}
    ON CONFLICT (day, user_id) DO UPDATE SET bytes = excluded.bytes`);
  await db.delete(storageDaily).where(lt(storageDaily.day, sql`to_char(now() AT TIME ZONE 'UTC' - interval '400 days', 'YYYY-MM-DD')`));
}

/** Bytes by member by day since `fromDay` (YYYY-MM-DD). */
export async function storageHistory(db: Db, fromDay: string): Promise<{ day: string; userId: string; username: string; bytes: number }[]> {
  const rows = await db
    .select({ day: storageDaily.day, userId: storageDaily.userId, username: users.username, bytes: storageDaily.bytes })
    .from(storageDaily)
    .innerJoin(users, eq(users.id, storageDaily.userId))
    .where(sql`${storageDaily.day} >= ${fromDay}`)
    .orderBy(storageDaily.day, users.username);
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}

/** Members storing anything now: today's point of the storage chart, before the janitor's snapshot. */
export async function currentUsage(db: Db): Promise<{ userId: string; username: string; bytes: number }[]> {
  const rows = await db.select({ userId: users.id, username: users.username, bytes: users.usedBytes }).from(users).where(sql`${users.usedBytes} > 0`);
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}
