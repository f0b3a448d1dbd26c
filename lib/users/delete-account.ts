import 'server-only';
import { deleteUserWithShares } from '@/db/queries/users';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedGroupPrefix } from '../storage/keys';
import { isUuid } from '../is-uuid';

/**
 * Deletes a user with everything they own. The records go in one transaction that also
 * records the deletion of every share's bytes, so a crash at any point leaves either
 * everything or a janitor job that finishes the bytes; the bytes go right after the commit.
 */
export async function deleteAccount(rt: Runtime, id: string): Promise<void> {
  const gcIds = isUuid(id) ? await deleteUserWithShares(rt.db, id, sharedGroupPrefix) : null;
  if (!gcIds) throw notFound('No such user');
  await runDeletions(rt, gcIds);
}
