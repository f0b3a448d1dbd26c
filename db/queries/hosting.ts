import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { hostedFiles, projects, type HostedFileRow, type ProjectRow } from '../schema';

export async function findProject(db: Db, slug: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.slug, slug));
  return row ?? null;
}

export async function projectExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db.select({ slug: projects.slug }).from(projects).where(eq(projects.slug, slug));
  return Boolean(row);
}

export async function listProjectsWithFiles(db: Db, slug?: string) {
  const ps = await db
    .select()
    .from(projects)
    .where(slug === undefined ? undefined : eq(projects.slug, slug))
    .orderBy(sql`${projects.createdAt} desc`, asc(projects.slug));
  const files = ps.length
    ? await db
        .select()
        .from(hostedFiles)
        .where(slug === undefined ? undefined : eq(hostedFiles.slug, slug))
        .orderBy(asc(hostedFiles.slug), asc(hostedFiles.path))
    : [];
  const bySlug = new Map<string, HostedFileRow[]>();
  for (const f of files) {
    const list = bySlug.get(f.slug) ?? [];
    list.push(f);
    bySlug.set(f.slug, list);
  }
  return ps.map((p) => ({ project: p, files: bySlug.get(p.slug) ?? [] }));
}

/** Everything the fast path needs to serve a site: the project and its files. */
export async function loadSite(db: Db, slug: string) {
  const project = await findProject(db, slug);
  if (!project) return null;
  const files = await db
    .select({
      id: hostedFiles.id,
      path: hostedFiles.path,
      storageKey: hostedFiles.storageKey,
      size: hostedFiles.size,
      contentType: hostedFiles.contentType,
      etag: hostedFiles.etag,
      status: hostedFiles.status,
      version: hostedFiles.version,
      updatedAt: hostedFiles.updatedAt,
    })
    .from(hostedFiles)
    .where(eq(hostedFiles.slug, slug))
    .orderBy(asc(hostedFiles.path));
  return { project, files };
}

/** Creates the project unless it exists; returns whether this call created it. */
export async function insertProject(
  db: Db,
  values: { slug: string; note: string; passwordHash: string | null },
): Promise<boolean> {
  const rows = await db.insert(projects).values(values).onConflictDoNothing().returning({ slug: projects.slug });
  return rows.length > 0;
}

export async function lockProject(db: Db, slug: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.slug, slug)).for('update');
  return row ?? null;
}

export async function updateProjectRow(
  db: Db,
  slug: string,
  patch: { note?: string; passwordHash?: string | null },
): Promise<ProjectRow | null> {
  const [row] = await db
    .update(projects)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(projects.slug, slug))
    .returning();
  return row ?? null;
}

export type NewHostedFile = Pick<HostedFileRow, 'path' | 'storageKey' | 'size' | 'contentType' | 'etag'>;

/**
 * Inserts or replaces files of a project (a replaced file goes online with a new version)
 * and returns the storage keys the replaced versions used.
 */
export async function upsertHostedFiles(db: Db, slug: string, files: NewHostedFile[]): Promise<string[]> {
  const replaced: string[] = [];
  for (let i = 0; i < files.length; i += 500) {
    const batch = files.slice(i, i + 500);
    const existing = await db
      .select({ storageKey: hostedFiles.storageKey })
      .from(hostedFiles)
      .where(and(eq(hostedFiles.slug, slug), inArray(hostedFiles.path, batch.map((f) => f.path))))
      .for('update');
    replaced.push(...existing.map((e) => e.storageKey));
    await db
      .insert(hostedFiles)
      .values(batch.map((f) => ({ ...f, slug })))
      .onConflictDoUpdate({
        target: [hostedFiles.slug, hostedFiles.path],
        set: {
          storageKey: sql`excluded.storage_key`,
          size: sql`excluded.size`,
          contentType: sql`excluded.content_type`,
          etag: sql`excluded.etag`,
          status: 'online',
          version: sql`${hostedFiles.version} + 1`,
          updatedAt: sql`now()`,
        },
      });
  }
  return replaced;
}

export async function setHostedFileStatus(db: Db, id: string, status: 'online' | 'offline'): Promise<HostedFileRow | null> {
  const [row] = await db
    .update(hostedFiles)
    .set({ status, version: sql`${hostedFiles.version} + 1`, updatedAt: sql`now()` })
    .where(eq(hostedFiles.id, id))
    .returning();
  return row ?? null;
}

export async function deleteHostedFileRow(db: Db, id: string): Promise<HostedFileRow | null> {
  const [row] = await db.delete(hostedFiles).where(eq(hostedFiles.id, id)).returning();
  return row ?? null;
}

/** Deletes the project and (by cascade) its files; returns the files' storage keys. */
export async function deleteProjectRow(db: Db, slug: string): Promise<string[] | null> {
  const files = await db
    .select({ storageKey: hostedFiles.storageKey })
    .from(hostedFiles)
    .where(eq(hostedFiles.slug, slug))
    .for('update');
  const deleted = await db.delete(projects).where(eq(projects.slug, slug)).returning({ slug: projects.slug });
  return deleted.length ? files.map((f) => f.storageKey) : null;
}
