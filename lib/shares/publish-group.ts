import 'server-only';
import type { Db } from '@/db/client';
import { completePendingGroup, RequestRefusedError } from '@/db/queries/uploads';
import type { ShareGroupRow, shareItems } from '@/db/schema';
import { emitRequestUploaded, emitShareCreated, eventFileNames } from '../events/emit';
import { wakePreviewWorker } from './previews/worker';

/**
 * A pending upload becomes its share, in one transaction with the event that announces it: a
 * guest's upload is request.uploaded (the owner did not create it), any other share.created.
 * False when the conditional publish lost to another complete or an abort; 'request_refused'
 * when a guest's request closed, expired or filled meanwhile, 'quota_refused' when its owner has
 * no room for it (both roll the whole transaction back).
 */
export async function publishGroup(
  db: Db,
  group: ShareGroupRow,
  items: Omit<typeof shareItems.$inferInsert, 'groupId'>[],
  opts: { status?: 'online' | 'offline'; requestId?: string | null } = {},
): Promise<boolean | 'request_refused' | 'quota_refused'> {
  const bytes = items.reduce((n, it) => n + Number(it.size), 0);
  try {
    const won = await db.transaction(async (tx) => {
      if (!(await completePendingGroup(tx, group, items, opts))) return false;
      const files = eventFileNames(items);
      if (opts.requestId) {
        await emitRequestUploaded(tx, { ownerId: group.userId, requestId: opts.requestId, shareId: group.id, name: group.receivedName, fileCount: items.length, bytes, files });
      } else {
        await emitShareCreated(tx, { ownerId: group.userId, shareId: group.id, note: group.note, fileCount: items.length, files, bytes, expiresAt: group.expiresAt });
      }
      return true;
    });
    // Its items' posters and thumbnails are made now, off this request (./previews/worker.ts).
    if (won) wakePreviewWorker();
    return won;
  } catch (e) {
    if (e instanceof RequestRefusedError) return e.why === 'quota' ? 'quota_refused' : 'request_refused';
    throw e;
  }
}
