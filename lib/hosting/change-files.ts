import 'server-only';
import { bumpHostingEpoch, deleteLiveFile, setLiveFileStatus } from '@/db/queries/hosting';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions, scheduleDeletion } from '../storage/gc';
import { compressedKey } from '../storage/keys';
import { parseEncodings } from './compression';
import { toFileDto, type FileDto } from './project-dto';
import { forgetSites } from './site-cache';

/** PATCH /api/status — one file of a live deploy online or offline. */
export async function setFileStatus(rt: Runtime, id: string, status: 'online' | 'offline'): Promise<FileDto> {
  const row = await rt.db.transaction(async (tx) => {
    const updated = await setLiveFileStatus(tx, id, status);
    if (!updated) throw notFound('No such file');
    await bumpHostingEpoch(tx);
    return updated;
  });
  forgetSites();
  return toFileDto(row);
}

/**
 * DELETE /api/files/:id — drops a file from the live deploy. Its object goes only when no
 * other kept deploy still uses it (an older deploy may be rolled back to).
 */
export async function deleteFile(rt: Runtime, id: string): Promise<void> {
  const ids = await rt.db.transaction(async (tx) => {
    const gone = await deleteLiveFile(tx, id);
    if (!gone) throw notFound('No such file');
    await bumpHostingEpoch(tx);
    if (gone.shared) return [];
    const keys = [gone.file.storageKey, ...parseEncodings(gone.file.encodings).map((e) => compressedKey(gone.file.storageKey, e.encoding))];
    return scheduleDeletion(tx, keys);
  });
  forgetSites();
  await runDeletions(rt, ids);
}
