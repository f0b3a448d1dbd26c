import 'server-only';
import { insertEvents } from '@/db/queries/events';
import type { Db } from '@/db/client';

/**
 * The files an event names, so a receiver needs no second call: the first 100 paths (a share
 * holds up to 500; `file_count` says how many in all).
 */
export const EVENT_FILE_NAMES = 100;
export const eventFileNames = (items: { relativePath: string }[]) => items.slice(0, EVENT_FILE_NAMES).map((it) => it.relativePath);

/**
 * share.created (API.md "Events"): call inside the transaction that publishes the share (pass it
 * as `tx`), so the event commits with the share it announces.
 */
export async function emitShareCreated(
  tx: Db,
  e: { ownerId: string | null; shareId: string; note: string; fileCount: number; files: string[]; bytes: number; expiresAt: Date | null },
): Promise<void> {
  await insertEvents(tx, [
    {
      type: 'share.created',
      audience: 'owner',
      userId: e.ownerId,
      data: { share_id: e.shareId, url: `/f/${e.shareId}`, note: e.note, file_count: e.fileCount, files: e.files, bytes: e.bytes, expires_at: e.expiresAt?.toISOString() ?? null },
    },
  ]);
}

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
