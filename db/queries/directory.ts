import 'server-only';
import { and, desc, exists, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { hostedFiles, projects } from '../schema';

const hasOnlineFile = (db: Db) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(hostedFiles)
      .where(and(sql`${hostedFiles.deployId} = ${projects.activeDeployId}`, sql`${hostedFiles.status} = 'online'`)),
  );

/** One page of the public directory: projects whose live deploy has an online file, newest first. */
export async function listPublicProjects(db: Db, opts: { q?: string; page: number; perPage: number }) {
  const pattern = opts.q ? `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = pattern
    ? and(hasOnlineFile(db), or(ilike(projects.slug, pattern), ilike(projects.note, pattern)))
    : hasOnlineFile(db);
  // One row past the page tells whether another page exists, without a count(*).
  const rows = await db
    .select({ slug: projects.slug, note: projects.note, locked: sql<boolean>`${projects.passwordHash} is not null` })
    .from(projects)
    .where(where)
    .orderBy(desc(projects.createdAt), projects.slug)
    .limit(opts.perPage + 1)
    .offset((opts.page - 1) * opts.perPage);
  return { projects: rows.slice(0, opts.perPage), hasMore: rows.length > opts.perPage };
}
