import 'server-only';
import { listPendingUploads } from '@/db/queries/shares';
import type { PendingUploadRow } from '@/db/schema';
import type { Uploader } from './uploader';
import type { UploadStatus } from '../contract/upload-protocol';
import { AppError } from '../errors';
import { mapLimit } from '../map-limit';
import type { Runtime } from '../runtime';
import { isStorageNotFound } from '../storage/types';
import { ownGroupOrThrow } from './own-group';

/** POST /api/shares/upload/status: which parts the store already holds, to resume an upload. */
export async function getUploadStatus(rt: Runtime, caller: Uploader, groupId: string): Promise<UploadStatus> {
  const group = await ownGroupOrThrow(rt, caller, groupId);
  if (group.uploadState !== 'pending') throw new AppError('already_completed', 'This upload is already complete');
  const pending = await listPendingUploads(rt.db, groupId);
  return {
    groupId,
    mode: group.uploadMode,
    partSize: group.partSize,
    files: await mapLimit(pending, 16, async (p) => ({
      clientPath: p.clientPath,
      relativePath: p.relativePath,
      uploadId: p.uploadId,
      storageKey: p.storageKey,
      partCount: p.partCount,
      size: Number(p.declaredSize),
      ...(await partsForStatus(rt, p)),
    })),
  };
}

/** Parts already stored; a file an earlier complete attempt already merged counts as done. */
async function partsForStatus(rt: Runtime, p: PendingUploadRow) {
  // No store upload yet: no part has arrived.
  if (!p.storeUploadId) return { completed: false, parts: [] };
  try {
    const parts = await rt.storage.listParts(p.storageKey, p.storeUploadId);
    return { completed: false, parts: parts.map((x) => ({ partNumber: x.partNumber, size: x.size, etag: x.etag })) };
  } catch (e) {
    if (!isStorageNotFound(e)) throw e;
    const done = await rt.storage.head(p.storageKey);
    return { completed: done !== null && done.size === Number(p.declaredSize), parts: [] };
  }
}
