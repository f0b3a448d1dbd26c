import 'server-only';
import { and, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { hostedFiles, projects, shareGroups, shareItems, users, type ProjectRow, type ShareGroupRow, type UserRow } from '../schema';
import type { Owner } from './owner';
import { shareOwnedBy } from './shares';

/**
 * Keyset pages of the lists (GET /api/shares, /api/users, /api/files): newest first, walked
 * down an index on (created_at, key) with a row comparison, never OFFSET, so page n costs what
 * page 1 costs and a row inserted meanwhile never shifts a later page.
 *
 * `at` is created_at as PostgreSQL's own text, not a JS Date: the column keeps microseconds and
 * a Date keeps milliseconds, so a Date cursor would skip or repeat rows created in the same ms.
 */
export interface PageAfter {
  at: string;
  key: string;
}

/**
 * Keyset position of a list entry kept by (created_at, id), newest first: the time in whole
 * microseconds, as stored (a millisecond Date would skip rows created within the same millisecond).
 */
export interface UsPosition {
  createdAtUs: string;
  id: string;
}

export interface PageQuery {
  limit: number;
  after: PageAfter | null;
  /** A substring to look for (case-insensitive); null: everything. */
  q: string | null;
}

export interface Page<T> {
  rows: T[];
  /** Where the next page starts, or null when this is the last. */
  next: PageAfter | null;
}

/** `%q%` for ILIKE, with the pattern's own wildcards taken literally. */
export const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Newest first, the key breaking ties. While searching for 3 characters or more, through an
 * expression no index provides (`created_at + 0 s`, the same order): the planner, which cannot
 * tell how rare a match of ILIKE '%…%' is, otherwise walks the newest-first index and filters,
 * reading every row when almost none match (150 ms at 100,000 shares); now it collects the
 * matches from the trigram indexes and sorts them (4 ms for one match, 12 ms for 10,000: bench
 * `--only scale`). A shorter search has no trigram to look up: the index walk, which stops at
 * the page's end, stays the better plan for it.
 */
export const newestFirst = (createdAt: PgColumn, key: PgColumn, q: string | null) =>
  q !== null && q.length >= 3 ? [desc(sql`${createdAt} + interval '0 s'`), desc(key)] : [desc(createdAt), desc(key)];

/**
 * `userId` names a member whose username matches `pattern`: written as `= any(array(…))` so that
 * beside the note's and the id's trigram indexes it is one more index scan of the same table (the
 * usernames' trigram index, then the owner index), where a condition on the joined users row
 * was checked against every share (db/migrations/0012_search_trigram.sql).
 */
export const ownerNameMatches = (userId: PgColumn, pattern: string) =>
  sql`${userId} = any(array(select ${users.id} from ${users} where ${users.username} ilike ${pattern}))`;

const before = (createdAt: PgColumn, key: PgColumn, after: PageAfter | null, keyType: 'text' | 'uuid') =>
  after === null ? undefined : sql`(${createdAt}, ${key}) < (${after.at}::timestamptz, ${after.key}::${sql.raw(keyType)})`;

/** Fetches one row more than the page to learn whether another page follows. */
function toPage<T extends { at: string }>(rows: T[], limit: number, keyOf: (row: T) => string): Page<T> {
  if (rows.length <= limit) return { rows, next: null };
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: { at: last.at, key: keyOf(last) } };
}

export interface ShareSummaryRow {
  group: ShareGroupRow;
  username: string | null;
  fileCount: number;
  /** Its first file in code-point order (lib/share-title.ts names a share by it), null while it holds none. */
  firstPath: string | null;
  at: string;
}

/** A page of shares `owner` may manage, each with its item count (not its items). */
export async function pageShares(db: Db, owner: Owner, p: PageQuery, requestId?: string): Promise<Page<ShareSummaryRow>> {
  const q = p.q ? containing(p.q) : null;
  const search: SQL | undefined = q
    ? or(sql`${shareGroups.note} ilike ${q}`, sql`${shareGroups.id} ilike ${q}`, ownerNameMatches(shareGroups.userId, q))
    : undefined;
  const rows = await db
    .select({
      group: shareGroups,
      username: users.username,
      fileCount: sql<number>`(select count(*) from ${shareItems} where ${shareItems.groupId} = ${shareGroups.id})::int`,
      firstPath: sql<string | null>`(select min(${shareItems.relativePath} collate "C") from ${shareItems} where ${shareItems.groupId} = ${shareGroups.id})`,
      at: sql<string>`${shareGroups.createdAt}::text`,
    })
    .from(shareGroups)
    .leftJoin(users, eq(users.id, shareGroups.userId))
    .where(
      and(
        shareOwnedBy(owner),
        // Files being added to a share are listed with that share once complete.
        isNull(shareGroups.addsTo),
        before(shareGroups.createdAt, shareGroups.id, p.after, 'text'),
        search,
        requestId ? eq(shareGroups.requestId, requestId) : undefined,
      ),
    )
    .orderBy(...newestFirst(shareGroups.createdAt, shareGroups.id, p.q))
    .limit(p.limit + 1);
  return toPage(rows, p.limit, (r) => r.group.id);
}

/** A page of users (the administrator's list), matched on username, display name or e-mail. */
export async function pageUsers(db: Db, p: PageQuery): Promise<Page<{ user: UserRow; at: string }>> {
  const q = p.q ? containing(p.q) : null;
  const search = q ? or(sql`${users.username} ilike ${q}`, sql`${users.displayName} ilike ${q}`, sql`${users.email} ilike ${q}`) : undefined;
  const rows = await db
    .select({ user: users, at: sql<string>`${users.createdAt}::text` })
    .from(users)
    .where(and(before(users.createdAt, users.id, p.after, 'uuid'), search))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(p.limit + 1);
  return toPage(rows, p.limit, (r) => r.user.id);
}

export interface ProjectSummaryRow {
  project: ProjectRow;
  at: string;
  fileCount: number;
  onlineCount: number;
  totalBytes: number;
  hasHtml: boolean;
}

/** A page of projects with their live deploy's counts (not its files), matched on slug or note. */
export async function pageProjects(db: Db, p: PageQuery): Promise<Page<ProjectSummaryRow>> {
  const q = p.q ? containing(p.q) : null;
  const rows = await db
    .select({ project: projects, at: sql<string>`${projects.createdAt}::text` })
    .from(projects)
    .where(and(before(projects.createdAt, projects.slug, p.after, 'text'), q ? or(sql`${projects.slug} ilike ${q}`, sql`${projects.note} ilike ${q}`) : undefined))
    .orderBy(desc(projects.createdAt), desc(projects.slug))
    .limit(p.limit + 1);
  const page = toPage(rows, p.limit, (r) => r.project.slug);
  const live = page.rows.map((r) => r.project.activeDeployId).filter((id): id is string => id !== null);
  const totals = new Map<string, { files: number; online: number; bytes: number; html: boolean }>();
  if (live.length > 0) {
    const agg = await db
      .select({
        deployId: hostedFiles.deployId,
        files: sql<number>`count(*)::int`,
        online: sql<number>`(count(*) filter (where ${hostedFiles.status} = 'online'))::int`,
        bytes: sql<string>`coalesce(sum(${hostedFiles.size}), 0)::text`,
        html: sql<boolean>`bool_or(${hostedFiles.path} ~* '\\.html?$')`,
      })
      .from(hostedFiles)
      .where(inArray(hostedFiles.deployId, live))
      .groupBy(hostedFiles.deployId);
    for (const a of agg) totals.set(a.deployId, { files: a.files, online: a.online, bytes: Number(a.bytes), html: a.html });
  }
  return {
    next: page.next,
    rows: page.rows.map((r) => {
      const t = (r.project.activeDeployId && totals.get(r.project.activeDeployId)) || { files: 0, online: 0, bytes: 0, html: false };
      return { project: r.project, at: r.at, fileCount: t.files, onlineCount: t.online, totalBytes: t.bytes, hasHtml: t.html };
    }),
  };
}
