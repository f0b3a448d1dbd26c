import 'server-only';
import { deleteShareGroup } from '@/db/queries/shares';
import type { Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedGroupPrefix } from '../storage/keys';

/**
 * DELETE /api/shares/:id — records and the owner's usage in one transaction that also
 * schedules the bytes for deletion, then the bytes. A crash after the commit leaves the janitor
 * a job. Another member's share is "not found", never "forbidden".
 */
export async function deleteShare(rt: Runtime, principal: Principal, id: string): Promise<void> {
  const gcIds = await deleteShareGroup(rt.db, managedBy(principal), id, sharedGroupPrefix(id));
  if (!gcIds) throw notFound('No such share');
  await runDeletions(rt, gcIds);
}
