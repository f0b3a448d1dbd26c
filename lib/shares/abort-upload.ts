import 'server-only';
import { findShareGroup } from '@/db/queries/shares';
import { scheduleDeletion } from '@/db/queries/storage-gc';
import { deletePendingGroup, idleGuestGroups, stalePendingGroups } from '@/db/queries/uploads';
import type { Uploader } from './uploader';
import { AppError } from '../errors';
import { mapLimit } from '../map-limit';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedGroupPrefix } from '../storage/keys';
import { ownGroupOrThrow } from './own-group';
import { forgetPendingParts } from './pending-parts';

const completed = () => new AppError('already_completed', 'This upload is already complete; delete the share instead');

/**
 * POST /api/shares/upload/abort: a pending upload and everything it stored. Members abort
 * their own; the administrator any member's (its reservation is released at once).
 */
export async function abortUpload(rt: Runtime, caller: Uploader, groupId: string): Promise<void> {
  const group = await ownGroupOrThrow(rt, caller, groupId, { anyOwnerForAdmin: true });
  if (group.uploadState === 'complete') throw completed();
  if (!(await discardGroup(rt, groupId))) {
    const now = await findShareGroup(rt.db, groupId);
    if (now?.uploadState === 'complete') throw completed();
  }
}

/**
 * Drops a pending group's records and schedules its bytes (parts and objects under its
 * prefix) for deletion in one transaction, then deletes them. Conditional on the group still
 * being pending: of an abort and a complete, exactly one wins. False when it was not pending.
 */
export async function discardGroup(rt: Runtime, groupId: string, opts: { onlyIfIdle?: boolean } = {}): Promise<boolean> {
  const gcIds = await rt.db.transaction(async (tx) => {
    const gone = await deletePendingGroup(tx, groupId, opts);
    return gone ? scheduleDeletion(tx, [sharedGroupPrefix(gone.id, gone.addsTo)]) : null;
  });
  if (!gcIds) return false;
  forgetPendingParts(rt, groupId);
  await runDeletions(rt, gcIds);
  return true;
}

/**
 * Janitor: uploads left pending past the TTL (24 h) are aborted and their reservation freed,
 * batch after batch until none is left (a batch that frees nothing ends the run).
 */
export function abortStaleUploads(rt: Runtime): Promise<number> {
  return discardInBatches(rt, (limit) => stalePendingGroups(rt.db, rt.env.pendingUploadTtlMs, limit));
}

/**
 * Janitor: a guest's upload that sent no part within GUEST_IDLE_UPLOAD_MINUTES is discarded
 * and its reservation freed (issue 39): a request link's inits that store nothing must not hold
 * the request, the owner's quota or multi-part sessions for a day. One that started meanwhile
 * is kept (the delete re-checks it).
 */
export function abortIdleGuestUploads(rt: Runtime): Promise<number> {
  return discardInBatches(rt, (limit) => idleGuestGroups(rt.db, rt.env.guestIdleUploadMs, limit), { onlyIfIdle: true });
}

/** Discards the groups `next` names, 100 at a time, until a batch is short or frees nothing. */
async function discardInBatches(rt: Runtime, next: (limit: number) => Promise<string[]>, opts?: { onlyIfIdle: true }): Promise<number> {
  let n = 0;
  for (;;) {
    const batch = await next(100);
    let freed = 0;
    // A few groups at once: each is a transaction, then its prefix's store calls.
    await mapLimit(batch, 4, async (id) => {
      if (await discardGroup(rt, id, opts)) freed++;
    });
    n += freed;
    if (batch.length < 100 || freed === 0) return n;
  }
}
