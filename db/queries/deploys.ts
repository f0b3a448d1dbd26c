import 'server-only';
import { and, desc, eq, inArray, notExists, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { deploys, hostedFiles, type DeployRow, type HostedFileRow } from '../schema';
import { batchesInUse, bumpHostingEpoch, insertProject, lockProject, updateProjectRow, type ProjectPatch } from './projects';
import { cancelDeletion, scheduleDeletion } from './storage-gc';
import { insertEvents } from './events';

// A project's deploys: publishing one (the project created if new), listing them, rolling back,
// and pruning those past the history with the objects no kept deploy uses.

export type NewHostedFile = Pick<HostedFileRow, 'path' | 'pathKey' | 'storageKey' | 'size' | 'contentType' | 'etag' | 'encodings'>;

/** A deploy's parsed `_redirects` and `_headers` (lib/hosting/site-rules.ts); null: no such file. */
export type DeployRules = NonNullable<DeployRow['rules']>;
/** What one upload brought: a key is present only for a file the upload carried. */
export type UploadedRules = Partial<DeployRules>;

/**
 * Writes a deploy: the new files, plus (for an append) every file of `base` whose path the
 * upload does not replace, keeping its object, status and compressed copies.
 */
async function insertDeploy(
  db: Db,
  d: { id: string; slug: string; createdBy: string; files: NewHostedFile[]; base: string | null; rules: UploadedRules },
): Promise<void> {
  // An append keeps the live deploy's rules for a file it does not replace, as it keeps the file.
  const [base] = d.base ? await db.select({ rules: deploys.rules }).from(deploys).where(eq(deploys.id, d.base)) : [];
  const rules: DeployRules = {
    redirects: d.rules.redirects !== undefined ? d.rules.redirects : (base?.rules?.redirects ?? null),
    headers: d.rules.headers !== undefined ? d.rules.headers : (base?.rules?.headers ?? null),
  };
  await db.insert(deploys).values({ id: d.id, slug: d.slug, createdBy: d.createdBy, fileCount: 0, totalBytes: 0, rules: rules.redirects || rules.headers ? rules : null });
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

export async function refreshDeployTotals(db: Db, id: string): Promise<void> {
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

/** Makes one of a project's deploys live (rollback); says which of the two was missing. */
export async function activateProjectDeploy(db: Db, slug: string, id: string): Promise<'ok' | 'no-project' | 'no-deploy'> {
  return db.transaction(async (tx) => {
    if (!(await lockProject(tx, slug))) return 'no-project';
    if (!(await findDeploy(tx, slug, id))) return 'no-deploy';
    await updateProjectRow(tx, slug, { activeDeployId: id });
    await bumpHostingEpoch(tx);
    await insertEvents(tx, [{ type: 'site.rolled_back', audience: 'admins', userId: null, data: { slug, deploy_id: id } }]);
    return 'ok';
  });
}

export interface NewDeploy {
  id: string;
  slug: string;
  createdBy: string;
  files: NewHostedFile[];
  /** The upload's parsed `_redirects` / `_headers` (an append keeps the live deploy's others). */
  rules: UploadedRules;
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
    await insertDeploy(tx, { id: d.id, slug: d.slug, createdBy: d.createdBy, files: d.files, base, rules: d.rules });
    await updateProjectRow(tx, d.slug, { ...(created ? {} : d.settings), activeDeployId: d.id });
    const { orphans, batchesInUse } = await pruneDeploys(tx, d.slug, d.keep, d.id);
    const ids = await scheduleDeletion(tx, releasable(orphans, batchesInUse));
    await cancelDeletion(tx, d.guards);
    await bumpHostingEpoch(tx);
    await insertEvents(tx, [{ type: 'site.deployed', audience: 'admins', userId: null, data: { slug: d.slug, deploy_id: d.id } }]);
    return ids;
  });
}
