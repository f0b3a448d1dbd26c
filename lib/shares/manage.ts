import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { findShare, listShares } from '@/db/queries/shares';
import { scheduleDeletion } from '@/db/queries/storage-gc';
import { shareGroups, users } from '@/db/schema';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { hashPassword } from '../auth/passwords';
import type { UpdateShareInput } from '../contract/shares';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedGroupPrefix } from '../storage/keys';
import { toShareDto, type ShareDto } from './share-dto';

/** Members see their own shares; the administrator sees everyone's. */
export async function listSharesFor(rt: Runtime, principal: Principal): Promise<ShareDto[]> {
  const rows = await listShares(rt.db, isAdmin(principal) ? undefined : ownerIdOf(principal));
  return rows.map(toShareDto);
}

/** A share the caller may manage; another member's share is "not found", never "forbidden". */
async function manageable(rt: Runtime, principal: Principal, id: string) {
  const share = await findShare(rt.db, id);
  if (!share || (!isAdmin(principal) && share.group.userId !== ownerIdOf(principal))) throw notFound('No such share');
  return share;
}

export async function updateShare(rt: Runtime, principal: Principal, id: string, input: UpdateShareInput): Promise<ShareDto> {
  const share = await manageable(rt, principal, id);
  if (input.status === 'online' && share.group.uploadState !== 'complete') {
    throw new AppError('upload_not_complete', 'This share cannot go online before its upload is complete');
  }
  const patch: Partial<typeof shareGroups.$inferInsert> = {};
  if (input.note !== undefined) patch.note = input.note;
  if (input.expires_at !== undefined) patch.expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
  if (input.password !== undefined) patch.passwordHash = input.password ? await hashPassword(input.password) : null;
  if (input.status !== undefined) patch.status = input.status;
  if (Object.keys(patch).length > 0) {
    await rt.db.update(shareGroups).set({ ...patch, updatedAt: sql`now()` }).where(eq(shareGroups.id, id));
  }
  return toShareDto((await findShare(rt.db, id)) ?? share);
}

/**
 * Deletes a share: records and the owner's usage in one transaction that also schedules the
 * bytes for deletion, then the bytes. A crash after the commit leaves the janitor a job.
 */
export async function deleteShare(rt: Runtime, principal: Principal, id: string): Promise<void> {
  await manageable(rt, principal, id);
  const gcIds = await rt.db.transaction(async (tx) => {
    const [gone] = await tx.delete(shareGroups).where(eq(shareGroups.id, id)).returning();
    if (!gone) throw notFound('No such share');
    if (gone.userId && gone.uploadState === 'complete') {
      await tx
        .update(users)
        .set({ usedBytes: sql`greatest(0, ${users.usedBytes} - ${gone.totalBytes})` })
        .where(eq(users.id, gone.userId));
    }
    return scheduleDeletion(tx, [sharedGroupPrefix(id)]);
  });
  await runDeletions(rt, gcIds);
}
