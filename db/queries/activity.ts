import 'server-only';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { downloadActivity, shareGroups, type DownloadActivityRow } from '../schema';
import { insertDownloadEvents } from './events';
import { addDownloadCounts } from './shares';

export interface DownloadEntry {
  shareId: string;
  /** The download this response belongs to: `t:<ticket>` or `c:<client>:<target>` (lib/shares/download-activity.ts). */
  key: string;
  /** The item's path, or null for the ZIP. */
  path: string | null;
  /** The whole item's (or ZIP's) size. */
  size: number;
  /** The bytes this response sent, as half-open [start, end) ranges of the whole. */
  covered: [number, number][];
  ip: string;
  userAgent: string;
  at: Date;
}

/**
 * A client's responses of one target without a download limit are one download while they
 * follow each other within this (a player's seeks, a resume, parallel ranges).
 */
export const ACTIVITY_WINDOW_MINUTES = 10;

/**
 * One batch of guest downloads in one transaction: the counts, the activity rows and one
 * share.downloaded event (with its webhook deliveries) per download whose bytes cover the
 * whole. Responses of one download are merged into one row by its key, in the database (an
 * upsert of the union of their byte ranges, so overlapping retries count once), so two
 * instances serving one download's ranges still write one row and one event (`notified` is
 * set once, under the row lock). Rows of shares deleted meanwhile are left out.
 */
export async function recordDownloads(db: Db, byShare: Map<string, number>, byItem: Map<string, number>, entries: DownloadEntry[]): Promise<void> {
  await db.transaction(async (tx) => {
    await addDownloadCounts(tx, byShare, byItem);
    if (entries.length === 0) return;
    // One row per download in this batch (an upsert may touch a row once per statement), in a
    // fixed order so that two instances lock rows alike.
    const merged = new Map<string, DownloadEntry & { last: Date }>();
    for (const e of entries) {
      const k = `${e.shareId}\n${e.key}`;
      const m = merged.get(k);
      if (!m) merged.set(k, { ...e, covered: [...e.covered], last: e.at });
      else {
        m.covered.push(...e.covered);
        if (e.at < m.at) m.at = e.at;
        if (e.at > m.last) m.last = e.at;
      }
    }
    const list = [...merged.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, e]) => e);
    const keys = sql.join(
      list.map((e) => sql`(${e.shareId}::text, ${e.key}::text, ${e.at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    // A client's window row whose last response is older than the window is a finished
    // download: closed, so this response starts a new one. So is a completed one that the client
    // asks for from its first byte again (the same guest downloading it a second time, or a
    // second play): that is a new download, not more ranges of the first.
    const again = sql.join(
      list.map((e) => sql`(${e.shareId}::text, ${e.key}::text, ${e.at.toISOString()}::timestamptz, ${e.covered.some(([from]) => from === 0)}::boolean)`),
      sql`, `,
    );
    await tx.execute(sql`UPDATE ${downloadActivity} a SET dl_key = NULL
      FROM (VALUES ${again}) AS v(group_id, dl_key, at, from_start)
      WHERE a.group_id = v.group_id AND a.dl_key = v.dl_key AND v.dl_key LIKE 'c:%'
        AND (a.last_at < v.at - make_interval(mins => ${ACTIVITY_WINDOW_MINUTES}) OR (a.completed AND v.from_start))`);
    const values = sql.join(
      list.map(
        (e) =>
          sql`(${e.shareId}::text, ${e.key}::text, ${e.path}::text, ${e.size}::bigint, ${multirange(e.covered)}::int8multirange, ${e.ip}::text, ${e.userAgent}::text, ${e.at.toISOString()}::timestamptz, ${e.last.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const count = (ranges: ReturnType<typeof sql>) => sql`(SELECT coalesce(sum(upper(r) - lower(r)), 0) FROM unnest(${ranges}) r)`;
    await tx.execute(sql`INSERT INTO ${downloadActivity} AS a (group_id, dl_key, path, size, covered, bytes, completed, ip, user_agent, created_at, last_at)
      SELECT v.group_id, v.dl_key, v.path, v.size, v.covered, ${count(sql`v.covered`)}, v.covered @> int8range(0, v.size), v.ip, v.user_agent, v.created_at, v.last_at
      FROM (VALUES ${values}) AS v(group_id, dl_key, path, size, covered, ip, user_agent, created_at, last_at)
      WHERE EXISTS (SELECT 1 FROM ${shareGroups} g WHERE g.id = v.group_id)
      ON CONFLICT (group_id, dl_key) DO UPDATE SET
        covered = coalesce(a.covered, '{}') + excluded.covered,
        bytes = ${count(sql`coalesce(a.covered, '{}') + excluded.covered`)},
        completed = a.completed OR (coalesce(a.covered, '{}') + excluded.covered) @> int8range(0, a.size),
        last_at = greatest(a.last_at, excluded.last_at)`);
    // share.downloaded once per download, when it completed: the flag is set under the row
    // lock, so of two instances only one sees it unset.
    const done = await tx.execute(sql`UPDATE ${downloadActivity} a SET notified = true
      FROM (VALUES ${keys}) AS v(group_id, dl_key, at)
      WHERE a.group_id = v.group_id AND a.dl_key = v.dl_key AND a.completed AND NOT a.notified
      RETURNING a.group_id, a.path, a.bytes`);
    const completed = ((done as { rows?: unknown[] }).rows ?? (done as unknown as unknown[])) as { group_id: string; path: string | null; bytes: string | number }[];
    await insertDownloadEvents(tx, completed.map((r) => ({ shareId: r.group_id, path: r.path, bytes: Number(r.bytes) })));
  });
}

/** Ranges as a multirange literal; PostgreSQL merges overlaps. */
function multirange(ranges: [number, number][]): string {
  return `{${ranges.filter(([a, b]) => b > a).map(([a, b]) => `[${a},${b})`).join(',')}}`;
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
