import 'server-only';
import { deleteShareItem } from '@/db/queries/shares';
import type { Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import { AppError, notFound } from '../errors';
import { pathKey } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';

/**
 * DELETE /api/shares/:id/items?path= — one file out of a published share: the record, the
 * share's size and the owner's usage in one transaction that schedules the object's deletion,
 * then the bytes (a crash in between leaves the janitor the job). Another member's share is
 * "not found", never "forbidden"; the share's only file stays (delete the share instead).
 */
export async function removeShareItem(rt: Runtime, principal: Principal, id: string, relativePath: string): Promise<void> {
  const r = await deleteShareItem(rt.db, managedBy(principal), id, pathKey(relativePath));
  if (r === 'no_share') throw notFound('No such share');
  if (r === 'no_item') throw notFound(`This share has no file "${relativePath}"`);
  if (r === 'pending') throw new AppError('upload_not_complete', 'This share is still uploading: finish or discard the upload first');
  if (r === 'last_item') throw new AppError('conflict', `"${relativePath}" is this share's only file: delete the share instead`);
  await runDeletions(rt, r);
}
