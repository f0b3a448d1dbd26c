import 'server-only';
import { findShareGroup } from '@/db/queries/shares';
import { findOwnShareGroup } from '@/db/queries/uploads';
import type { ShareGroupRow } from '@/db/schema';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { isGuest, uploaderIsAdmin, uploaderOwnerId, type Uploader } from './uploader';

/**
 * The caller's own share group, else 404 (never 403: another member's share does not exist
 * for them). `anyOwnerForAdmin`: the administrator may act on every member's group. A guest's
 * upload token reaches its own group only, and only while it is pending.
 */
export async function ownGroupOrThrow(rt: Runtime, caller: Uploader, groupId: string, opts: { anyOwnerForAdmin?: boolean } = {}): Promise<ShareGroupRow> {
  if (isGuest(caller)) {
    const group = groupId === caller.groupId ? await findShareGroup(rt.db, groupId) : null;
    if (!group || group.requestId !== caller.requestId || group.uploadState !== 'pending') throw notFound('No such upload');
    return group;
  }
  const group =
    opts.anyOwnerForAdmin && uploaderIsAdmin(caller) ? await findShareGroup(rt.db, groupId) : await findOwnShareGroup(rt.db, groupId, uploaderOwnerId(caller));
  if (!group) throw notFound('No such upload');
  return group;
}
