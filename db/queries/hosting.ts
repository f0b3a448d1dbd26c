import 'server-only';
import { and, asc, desc, eq, inArray, notExists, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { bumpEpoch, EPOCH } from './settings';
import { cancelDeletion, scheduleDeletion } from './storage-gc';
import { deploys, hostedFiles, projects, type DeployRow, type HostedFileRow, type ProjectRow } from '../schema';

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
  const [deploy] = await db.select({ id: deploys.id }).from(deploys).where(and(eq(deploys.id, id), eq(deploys.slug, slug)));
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
  return { project, deployId: id, files };
}

/** Creates the project unless it exists; returns whether this call created it. */
async function insertProject(
  db: Db,
  values: { slug: string; note: string; passwordHash: string | null; spa: boolean; allowDotfiles: boolean },
): Promise<boolean> {
  const rows = await db.insert(projects).values(values).onConflictDoNothing().returning({ slug: projects.slug });
  return rows.length > 0;
}

async function lockProject(db: Db, slug: string): Promise<ProjectRow | null> {
  const [row] = await db.select().from(projects).where(eq(projects.slug, slug)).for('update');
  return row ?? null;
}

export type ProjectPatch = { note?: string; passwordHash?: string | null; spa?: boolean; allowDotfiles?: boolean; activeDeployId?: string };

async function updateProjectRow(db: Db, slug: string, patch: ProjectPatch): Promise<ProjectRow | null> {
  const [row] = await db
    .update(projects)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(projects.slug, slug))
    .returning();
  return row ?? null;
}

export type NewHostedFile = Pick<HostedFileRow, 'path' | 'pathKey' | 'storageKey' | 'size' | 'contentType' | 'etag' | 'encodings'>;

/**
 * Writes a deploy: the new files, plus (for an append) every file of `base` whose path the
 * upload does not replace, keeping its object, status and compressed copies.
 */
async function insertDeploy(
  db: Db,
  d: { id: string; slug: string; createdBy: string; files: NewHostedFile[]; base: string | null },
): Promise<void> {
  await db.insert(deploys).values({ id: d.id, slug: d.slug, createdBy: d.createdBy, fileCount: 0, totalBytes: 0 });
  const replaced = new Set(d.files.map((f) => f.pathKey));
  const kept = d.base
    ? (await db.select().from(hostedFiles).where(eq(hostedFiles.deployId, d.base))).filter((f) => !replaced.has(f.pathKey))
    : [];
  const rows = [
    ...kept.map((f) => ({ path: f.path, pathKey: f.pathKey, storageKey: f.storageKey, size: f.size, contentType: f.contentType, etag: f.etag, encodings: f.encodings, status: f.status })),
    ...d.files,
  ];
  for (let i = 0; i < rows.length; i += 500) {
    await db.insert(hostedFiles).values(rows.slice(i, i + 500).map((f) => ({ ...f, slug: d.slug, deployId: d.id })));
  }
  await refreshDeployTotals(db, d.id);
}

async function refreshDeployTotals(db: Db, id: string): Promise<void> {
  const count = db.select({ n: sql`count(*)` }).from(hostedFiles).where(eq(hostedFiles.deployId, id));
  const total = db.select({ n: sql`coalesce(sum(${hostedFiles.size}), 0)` }).from(hostedFiles).where(eq(hostedFiles.deployId, id));
  await db
    .update(deploys)
    .set({ fileCount: sql`(${count})`, totalBytes: sql`(${total})` })
    .where(eq(deploys.id, id));
}

export async function listDeploys(db: Db, slug: string): Promise<DeployRow[]> {
  return db.select().from(deploys).where(eq(deploys.slug, slug)).orderBy(desc(deploys.createdAt), desc(deploys.id));
}

async function findDeploy(db: Db, slug: string, id: string): Promise<DeployRow | null> {
  const [row] = await db.select().from(deploys).where(and(eq(deploys.slug, slug), eq(deploys.id, id)));
  return row ?? null;
}

/**
 * Drops the deploys past the newest `keep` (never the live one) and returns the objects no
 * remaining deploy uses, with the compressed copies each has, and the upload batches of the
 * project still in use.
 */
async function pruneDeploys(db: Db, slug: string, keep: number, activeId: string) {
  const all = await listDeploys(db, slug);
  const doomed = all.filter((d, i) => i >= keep && d.id !== activeId).map((d) => d.id);
  if (doomed.length === 0) return { orphans: [], batchesInUse: new Set<string>() };
  const other = alias(hostedFiles, 'other');
  const orphans = await db
    .selectDistinct({ storageKey: hostedFiles.storageKey, encodings: hostedFiles.encodings })
    .from(hostedFiles)
    .where(
      and(
        inArray(hostedFiles.deployId, doomed),
        notExists(
          db
            .select({ one: sql`1` })
            .from(other)
            .where(and(eq(other.storageKey, hostedFiles.storageKey), notInArray(other.deployId, doomed))),
        ),
      ),
    );
  await db.delete(deploys).where(inArray(deploys.id, doomed));
  return { orphans, batchesInUse: await batchesInUse(db, slug) };
}

/** The upload batches (third key segment) some file of the project still points into. */
export async function batchesInUse(db: Db, slug: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ batch: sql<string>`split_part(${hostedFiles.storageKey}, '/', 3)` })
    .from(hostedFiles)
    .where(eq(hostedFiles.slug, slug));
  return new Set(rows.map((r) => r.batch));
}

/** A file of the project's live deploy, locked, or null (files of older deploys are not addressable). */
async function lockLiveFile(db: Db, id: string): Promise<HostedFileRow | null> {
  const [row] = await db
    .select({ file: hostedFiles })
    .from(hostedFiles)
    .innerJoin(projects, and(eq(projects.slug, hostedFiles.slug), eq(projects.activeDeployId, hostedFiles.deployId)))
    .where(eq(hostedFiles.id, id))
    .for('update');
  return row?.file ?? null;
}

async function setLiveFileStatus(db: Db, id: string, status: 'online' | 'offline'): Promise<HostedFileRow | null> {
  if (!(await lockLiveFile(db, id))) return null;
  const [row] = await db.update(hostedFiles).set({ status, updatedAt: sql`now()` }).where(eq(hostedFiles.id, id)).returning();
  return row ?? null;
}

/** Removes a file from the live deploy; returns it and whether another deploy still uses its object. */
async function deleteLiveFile(db: Db, id: string): Promise<{ file: HostedFileRow; shared: boolean } | null> {
  const file = await lockLiveFile(db, id);
  if (!file) return null;
  await db.delete(hostedFiles).where(eq(hostedFiles.id, id));
  await refreshDeployTotals(db, file.deployId);
  const [other] = await db.select({ id: hostedFiles.id }).from(hostedFiles).where(eq(hostedFiles.storageKey, file.storageKey)).limit(1);
  return { file, shared: Boolean(other) };
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
const bumpHostingEpoch = (db: Db) => bumpEpoch(db, EPOCH.hosting);

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

/** Makes one of a project's deploys live (rollback); says which of the two was missing. */
export async function activateProjectDeploy(db: Db, slug: string, id: string): Promise<'ok' | 'no-project' | 'no-deploy'> {
  return db.transaction(async (tx) => {
    if (!(await lockProject(tx, slug))) return 'no-project';
    if (!(await findDeploy(tx, slug, id))) return 'no-deploy';
    await updateProjectRow(tx, slug, { activeDeployId: id });
    await bumpHostingEpoch(tx);
    return 'ok';
  });
}

/** One live file online or offline, and the hosting epoch bumped, together; null when no such file. */
export async function changeLiveFileStatus(db: Db, id: string, status: 'online' | 'offline'): Promise<HostedFileRow | null> {
  return db.transaction(async (tx) => {
    const updated = await setLiveFileStatus(tx, id, status);
    if (updated) await bumpHostingEpoch(tx);
    return updated;
  });
}

/**
 * Drops a file from the live deploy and schedules `keysOf` it for deletion unless another kept
 * deploy shares its object, in one transaction; null when no such file.
 */
export async function removeLiveFile(db: Db, id: string, keysOf: (file: HostedFileRow) => string[]): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const gone = await deleteLiveFile(tx, id);
    if (!gone) return null;
    await bumpHostingEpoch(tx);
    return gone.shared ? [] : scheduleDeletion(tx, keysOf(gone.file));
  });
}

export interface NewDeploy {
  id: string;
  slug: string;
  createdBy: string;
  files: NewHostedFile[];
  /** Keep the live deploy's other files. */
  append: boolean;
  /** An existing project may take this deploy (append or replace); else the slug must be new. */
  mayExist: boolean;
  settings: Omit<ProjectPatch, 'activeDeployId'>;
  /** Deploys kept per project (the live one always is). */
  keep: number;
  /** The upload's guard rows, dropped in the same transaction. */
  guards: string[];
}

/**
 * Makes a deploy live in one transaction: the project (created if new), the deploy and its file
 * rows, the project's pointer to it, and the pruning of deploys past `keep` with the objects
 * no kept deploy uses (`releasable` names them). The deletion job ids, or 'slug-taken' when
 * the project exists and `mayExist` is false.
 */
export async function publishDeployRecords(
  db: Db,
  d: NewDeploy,
  releasable: (orphans: { storageKey: string; encodings: string }[], batchesInUse: Set<string>) => string[],
): Promise<string[] | 'slug-taken'> {
  return db.transaction(async (tx) => {
    const created = await insertProject(tx, {
      slug: d.slug,
      note: d.settings.note ?? '',
      passwordHash: d.settings.passwordHash ?? null,
      spa: d.settings.spa ?? false,
      allowDotfiles: d.settings.allowDotfiles ?? false,
    });
    let base: string | null = null;
    if (!created) {
      if (!d.mayExist) return 'slug-taken' as const;
      const project = await lockProject(tx, d.slug);
      base = d.append ? (project?.activeDeployId ?? null) : null;
    }
    await insertDeploy(tx, { id: d.id, slug: d.slug, createdBy: d.createdBy, files: d.files, base });
    await updateProjectRow(tx, d.slug, { ...(created ? {} : d.settings), activeDeployId: d.id });
    const { orphans, batchesInUse } = await pruneDeploys(tx, d.slug, d.keep, d.id);
    const ids = await scheduleDeletion(tx, releasable(orphans, batchesInUse));
    await cancelDeletion(tx, d.guards);
    await bumpHostingEpoch(tx);
    return ids;
  });
}
