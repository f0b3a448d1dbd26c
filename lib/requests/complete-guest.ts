import 'server-only';
import { findRequest } from '@/db/queries/requests';
import type { PendingUploadRow, ShareGroupRow } from '@/db/schema';
import { AppError } from '../errors';
import { mapLimit } from '../map-limit';
import type { Runtime } from '../runtime';
import { discardGroup } from '../shares/abort-upload';
import type { RequestChecks } from '../shares/complete-upload';
import { readFirstBytes } from '../storage/read-first-bytes';
import { bytesAllowed, describeTypes, SNIFF_BYTES } from './allowed-types';
import { checkRequestFiles } from './guest-upload';
import { expiredError, fullError, isExpired, isFull, missingError, ownerMayReceive } from './request-gate';

/**
 * The request's limits at complete, on what the store holds: `sizes` before the merge (count,
 * bytes and names against the request as it is now, which its owner may have changed, closed or
 * filled meanwhile), `bytes` after it (each file's first bytes against allowed_types). A refusal
 * discards the whole upload: nothing of it is kept.
 */
export async function checkReceivedUpload(
  rt: Runtime,
  group: ShareGroupRow,
  files: { pending: PendingUploadRow; size: number }[],
  stage: 'sizes' | 'bytes',
): Promise<void> {
  try {
    const found = await findRequest(rt.db, group.requestId!);
    if (!found || found.request.status !== 'open' || !ownerMayReceive(rt.env, found)) throw missingError();
    const r = found.request;
    if (stage === 'sizes') {
      if (isExpired(r)) throw expiredError();
      if (isFull(r)) throw fullError();
      checkRequestFiles(rt, r, files.map((f) => ({ relativePath: f.pending.relativePath, size: f.size })));
      return;
    }
    if (!r.allowedTypes) return;
    const allowed = r.allowedTypes;
    await mapLimit(files, 8, async (f) => {
      const head = await readFirstBytes(rt.storage, f.pending.storageKey, Math.min(SNIFF_BYTES, f.size));
      const verdict = await bytesAllowed(allowed, head);
      if (!verdict.ok) {
        throw new AppError('type_not_allowed', `${f.pending.relativePath} is really ${verdict.detected}, not a type this request takes (${describeTypes(allowed)}); the upload was cancelled`);
      }
    });
  } catch (e) {
    if (e instanceof AppError) await discardGroup(rt, group.id);
    throw e;
  }
}

/** Why publishing a guest's upload was refused by its request (closed, expired, full or gone meanwhile). */
export async function refusalAfterPublish(rt: Runtime, requestId: string): Promise<AppError> {
  const found = await findRequest(rt.db, requestId);
  if (!found || found.request.status !== 'open') return missingError();
  if (isExpired(found.request)) return expiredError();
  return fullError();
}

/** What completing a guest's upload asks of its request (lib/shares/complete-upload.ts). */
export const requestChecks: RequestChecks = { check: checkReceivedUpload, refusal: refusalAfterPublish };
