import 'server-only';
import { findShareGroup } from '@/db/queries/shares';
import { findOwnShareGroup } from '@/db/queries/uploads';
import type { ShareGroupRow } from '@/db/schema';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';

/**
 * The caller's own share group, else 404 (never 403: another member's share does not exist
 * for them). `anyOwnerForAdmin`: the administrator may act on every member's group.
 */
export async function ownGroupOrThrow(rt: Runtime, principal: Principal, groupId: string, opts: { anyOwnerForAdmin?: boolean } = {}): Promise<ShareGroupRow> {
  const group =
    opts.anyOwnerForAdmin && isAdmin(principal) ? await findShareGroup(rt.db, groupId) : await findOwnShareGroup(rt.db, groupId, ownerIdOf(principal));
  if (!group) throw notFound('No such upload');
  return group;
}
