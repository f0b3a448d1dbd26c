import 'server-only';
import { insertEvents } from '@/db/queries/events';
import type { Db } from '@/db/client';

/**
 * request.uploaded (API.md "Events"): call inside the transaction that completes a guest's upload
 * through a file request (pass that transaction as `tx`), so the event commits with the share it
 * announces. `name` is what the uploader typed; their e-mail and address never go in a payload.
 */
export async function emitRequestUploaded(
  tx: Db,
  e: { ownerId: string | null; requestId: string; shareId: string; name: string | null; fileCount: number; bytes: number; files: string[] },
): Promise<void> {
  await insertEvents(tx, [
    {
      type: 'request.uploaded',
      audience: 'owner',
      userId: e.ownerId,
      data: { request_id: e.requestId, share_id: e.shareId, url: `/f/${e.shareId}`, name: e.name, file_count: e.fileCount, files: e.files, bytes: e.bytes },
    },
  ]);
}
