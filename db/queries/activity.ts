import 'server-only';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { downloadActivity, shareGroups, type DownloadActivityRow } from '../schema';
import { insertDownloadEvents } from './events';
import { addDownloadCounts } from './shares';

export interface DownloadEntry {
  shareId: string;
  /** The item's path, or null for the ZIP. */
  path: string | null;
  bytes: number;
  completed: boolean;
  ip: string;
  userAgent: string;
  at: Date;
}

/**
 * One batch of guest downloads in one transaction: the counts, the activity rows and a
 * share.downloaded event (with its webhook deliveries) for each download that reached its
 * last byte. Rows of shares deleted meanwhile are left out.
 */
export async function recordDownloads(db: Db, byShare: Map<string, number>, byItem: Map<string, number>, entries: DownloadEntry[]): Promise<void> {
  await db.transaction(async (tx) => {
    await addDownloadCounts(tx, byShare, byItem);
    if (entries.length === 0) return;
    const values = sql.join(
      entries.map((e) => sql`(${e.shareId}::text, ${e.path}::text, ${e.bytes}::bigint, ${e.completed}::boolean, ${e.ip}::text, ${e.userAgent}::text, ${e.at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await tx.execute(sql`INSERT INTO ${downloadActivity} (group_id, path, bytes, completed, ip, user_agent, created_at)
      SELECT v.* FROM (VALUES ${values}) AS v(group_id, path, bytes, completed, ip, user_agent, created_at)
      WHERE EXISTS (SELECT 1 FROM ${shareGroups} g WHERE g.id = v.group_id)`);
    await insertDownloadEvents(tx, entries.filter((e) => e.completed).map((e) => ({ shareId: e.shareId, path: e.path, bytes: e.bytes })));
  });
}

/** A share's newest download rows (the caller checked the share is theirs). */
export async function listDownloadActivity(db: Db, shareId: string, limit: number): Promise<DownloadActivityRow[]> {
  return db.select().from(downloadActivity).where(eq(downloadActivity.groupId, shareId)).orderBy(desc(downloadActivity.createdAt)).limit(limit);
}

/** Downloads per UTC day of a share over the last `days` days: all, and those completed. */
export async function downloadsPerDay(db: Db, shareId: string, days: number): Promise<{ day: string; downloads: number; completed: number }[]> {
  const rows = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${downloadActivity.createdAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`,
      downloads: sql<number>`count(*)::int`,
      completed: sql<number>`(count(*) FILTER (WHERE ${downloadActivity.completed}))::int`,
    })
    .from(downloadActivity)
    .where(and(eq(downloadActivity.groupId, shareId), sql`${downloadActivity.createdAt} > now() - make_interval(days => ${days})`))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({ day: r.day, downloads: Number(r.downloads), completed: Number(r.completed) }));
}

export async function purgeOldActivity(db: Db, retentionDays: number): Promise<void> {
  await db.delete(downloadActivity).where(lt(downloadActivity.createdAt, sql`now() - make_interval(days => ${retentionDays})`));
}
