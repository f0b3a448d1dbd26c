import 'server-only';
import { claimStoreUpload } from '@/db/queries/uploads';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';

/** What starting a pending file's store upload needs to know of it. */
export interface StoreUploadRef {
  /** The pending_uploads row. */
  id: string;
  storageKey: string;
  contentType: string;
  partSize: number;
  storeUploadId: string | null;
}

/**
 * The pending file's multi-part upload in the store, started here on its first part (or first
 * part URL) rather than at init (issue 39): an init that never sends a byte holds nothing in
 * the store. Two first parts racing (parallel parts, two instances) each start one; the
 * conditional update keeps the first recorded and the other is aborted, so a file has exactly
 * one. A file discarded meanwhile (abort, janitor) finds its row gone: its new upload is aborted
 * and the part is a 404, as for any part of a cancelled upload.
 */
export async function ensureStoreUpload(rt: Runtime, ref: StoreUploadRef): Promise<string> {
  if (ref.storeUploadId) return ref.storeUploadId;
  const mine = await rt.storage.createMultipart(ref.storageKey, { contentType: ref.contentType, partSize: ref.partSize });
  let kept: string | null;
  try {
    kept = await claimStoreUpload(rt.db, ref.id, mine);
  } catch (e) {
    await rt.storage.abortMultipart(ref.storageKey, mine).catch(() => {});
    throw e;
  }
  if (kept !== mine) await rt.storage.abortMultipart(ref.storageKey, mine).catch(() => {});
  if (kept === null) throw notFound('This upload was completed or cancelled');
  return kept;
}
