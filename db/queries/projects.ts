import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { deploys, hostedFiles, projects, type HostedFileRow, type ProjectRow } from '../schema';
import { bumpEpoch, EPOCH } from './settings';
import { scheduleDeletion } from './storage-gc';

// Hosted projects: the project rows, what the console lists and the fast path serves, and the
// changes to a project as a whole. Its deploys are in deploys.ts, the live deploy's files in
// hosted-files.ts.

export async function findProject(db: Db, slug: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.slug, slug));
  return row ?? null;
}

export async function projectExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db.select({ slug: projects.slug }).from(projects).where(eq(projects.slug, slug));
  return Boolean(row);
}

/** Files of the deploys given, in path order, grouped by deploy. */
async function filesOf(db: Db, deployIds: string[]): Promise<Map<string, HostedFileRow[]>> {
  const byDeploy = new Map<string, HostedFileRow[]>();
  if (deployIds.length === 0) return byDeploy;
  const rows = await db.select().from(hostedFiles).where(inArray(hostedFiles.deployId, deployIds)).orderBy(asc(hostedFiles.path));
  for (const f of rows) {
    const list = byDeploy.get(f.deployId) ?? [];
    list.push(f);
    byDeploy.set(f.deployId, list);
  }
  return byDeploy;
}

export async function getProjectWithFiles(db: Db, slug: string): Promise<{ project: ProjectRow; files: HostedFileRow[] } | null> {
  const project = await findProject(db, slug);
  if (!project) return null;
  const files = project.activeDeployId ? await filesOf(db, [project.activeDeployId]) : new Map();
  return { project, files: (project.activeDeployId && files.get(project.activeDeployId)) || [] };
}

/** What the fast path needs to serve a site: the project and one deploy's files (the live one by default). */
export async function loadSite(db: Db, slug: string, deployId?: string) {
  const project = await findProject(db, slug);
  const id = deployId ?? project?.activeDeployId;
  if (!project || !id) return null;
  const [deploy] = await db.select({ id: deploys.id, rules: deploys.rules }).from(deploys).where(and(eq(deploys.id, id), eq(deploys.slug, slug)));
  if (!deploy) return null;
  const files = await db
    .select({
      id: hostedFiles.id,
      path: hostedFiles.path,
      storageKey: hostedFiles.storageKey,
      size: hostedFiles.size,
      contentType: hostedFiles.contentType,
      etag: hostedFiles.etag,
      encodings: hostedFiles.encodings,
      status: hostedFiles.status,
      updatedAt: hostedFiles.updatedAt,
    })
    .from(hostedFiles)
    .where(eq(hostedFiles.deployId, id))
    .orderBy(asc(hostedFiles.path));
  return { project, deployId: id, files, rules: deploy.rules };
}

/** Creates the project unless it exists; returns whether this call created it. */
export async function insertProject(
  db: Db,
  values: { slug: string; note: string; passwordHash: string | null; spa: boolean; allowDotfiles: boolean },
): Promise<boolean> {
  const rows = await db.insert(projects).values(values).onConflictDoNothing().returning({ slug: projects.slug });
  return rows.length > 0;
}

export async function lockProject(db: Db, slug: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.slug, slug)).for('update');
  return row ?? null;
}

export type ProjectPatch = { note?: string; passwordHash?: string | null; spa?: boolean; allowDotfiles?: boolean; activeDeployId?: string };

export async function updateProjectRow(db: Db, slug: string, patch: ProjectPatch): Promise<ProjectRow | null> {
  const [row] = await db
    .update(projects)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(projects.slug, slug))
    .returning();
  return row ?? null;
}

/** The upload batches (third key segment) some file of the project still points into. */
export async function batchesInUse(db: Db, slug: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ batch: sql<string>`split_part(${hostedFiles.storageKey}, '/', 3)` })
    .from(hostedFiles)
    .where(eq(hostedFiles.slug, slug));
  return new Set(rows.map((r) => r.batch));
}

/** Deletes the project with every deploy; returns the upload batches its objects live in. */
async function deleteProjectRow(db: Db, slug: string): Promise<string[] | null> {
  if (!(await lockProject(db, slug))) return null;
  const batches = await batchesInUse(db, slug);
  await db.delete(projects).where(eq(projects.slug, slug));
  return [...batches];
}

/**
 * Every change a visitor could see (a deploy going live, a status, a password) bumps this
 * counter in the same transaction; each instance polls it to drop its cached sites.
 */
export const bumpHostingEpoch = (db: Db) => bumpEpoch(db, EPOCH.hosting);

/**
 * Deletes a project with every deploy's records and schedules their bytes (`prefixesOf` its
 * batches) for deletion, in one transaction. The deletion job ids, or null when no such project.
 */
export async function deleteProjectWithDeploys(db: Db, slug: string, prefixesOf: (batches: string[]) => string[]): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const batches = await deleteProjectRow(tx, slug);
    if (batches === null) return null;
    await bumpHostingEpoch(tx);
    return scheduleDeletion(tx, prefixesOf(batches));
  });
}

/** Applies a settings patch under the project's row lock; false when no such project. */
export async function updateProjectSettings(db: Db, slug: string, patch: ProjectPatch): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lockProject(tx, slug))) return false;
    if (Object.keys(patch).length === 0) return true;
    await updateProjectRow(tx, slug, patch);
    await bumpHostingEpoch(tx);
    return true;
  });
}
