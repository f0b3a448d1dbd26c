import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { hostedFiles, projects, type HostedFileRow } from '../schema';
import { refreshDeployTotals } from './deploys';
import { bumpHostingEpoch } from './projects';
import { scheduleDeletion } from './storage-gc';

// The files of a project's live deploy: taken offline or online, or removed one by one. Each
// applies to every deploy of the project that holds the same object (an append copies the rows
// of the files it keeps): the administrator's preview of an older deploy, and a rollback to it,
// served a file taken offline or deleted until issue 39 (item 10 b).

/** The project's rows holding the file's object, in every deploy. */
const sameObject = (file: HostedFileRow) => and(eq(hostedFiles.slug, file.slug), eq(hostedFiles.storageKey, file.storageKey));

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
  const file = await lockLiveFile(db, id);
  if (!file) return null;
  const rows = await db.update(hostedFiles).set({ status, updatedAt: sql`now()` }).where(sameObject(file)).returning();
  return rows.find((r) => r.id === id) ?? null;
}

/** Removes a file from the live deploy and every deploy of the project holding its object; returns it and whether another project still uses the object. */
async function deleteLiveFile(db: Db, id: string): Promise<{ file: HostedFileRow; shared: boolean } | null> {
  const file = await lockLiveFile(db, id);
  if (!file) return null;
  const gone = await db.delete(hostedFiles).where(sameObject(file)).returning({ deployId: hostedFiles.deployId });
  for (const deployId of new Set(gone.map((g) => g.deployId))) await refreshDeployTotals(db, deployId);
  const [other] = await db.select({ id: hostedFiles.id }).from(hostedFiles).where(eq(hostedFiles.storageKey, file.storageKey)).limit(1);
  return { file, shared: Boolean(other) };
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

/** One hosted file by id, whatever its deploy (the audit log names it before it is deleted). */
export async function findHostedFileById(db: Db, id: string): Promise<HostedFileRow | null> {
  const [row] = await db.select().from(hostedFiles).where(eq(hostedFiles.id, id)).limit(1);
  return row ?? null;
}
