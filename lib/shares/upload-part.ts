import 'server-only';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { findOwnPendingUpload } from '@/db/queries/shares';
import { markGuestUploadStarted } from '@/db/queries/uploads';
import type { PendingUploadRow, ShareGroupRow } from '@/db/schema';
import type { ChunkResult, PartRef, PartUrlResult } from '../contract/upload-protocol';
import { AppError, notFound } from '../errors';
import { perRuntime, type Runtime } from '../runtime';
import { isStorageNotFound } from '../storage/types';
import { expectedPartSize } from './capabilities';
import { directUploadsAllowed } from './direct-uploads';
import { isGuest, uploaderOwnerId, type Uploader } from './uploader';
import { ensureStoreUpload } from './store-upload';
import { knownPendingPart, recordPartCrcSoon, rememberPendingParts, type PendingPart } from './pending-parts';
import { StorageIncompleteBodyError } from '../storage/errors';

const PRESIGN_SECONDS = 15 * 60;

/** Guests' uploads this service has already marked started: one write per upload, not per part. */
const started = perRuntime(() => new Set<string>());

/**
 * A guest's first part (or, in direct mode, its first part URL) marks the upload started, before
 * the part is stored: from then on the janitor's short idle limit no longer applies to it.
 */
async function guestUploadStarted(rt: Runtime, groupId: string): Promise<void> {
  const seen = started(rt);
  if (seen.has(groupId)) return;
  await markGuestUploadStarted(rt.db, groupId);
  if (seen.size >= 10_000) seen.clear();
  seen.add(groupId);
}

/** The pending session named by the pair, if it belongs to this group and this caller. */
async function pendingFor(rt: Runtime, caller: Uploader, ref: Omit<PartRef, 'partNumber'>): Promise<{ pending: PendingUploadRow; group: ShareGroupRow }> {
  // A guest's upload token reaches its own group's sessions only.
  if (isGuest(caller) && ref.groupId !== caller.groupId) throw notFound('No such pending upload');
  const row = await findOwnPendingUpload(rt.db, { ownerId: uploaderOwnerId(caller) }, ref);
  if (!row) throw notFound('No such pending upload');
  return row;
}

function checkPartNumber(pending: PendingUploadRow, partNumber: number): void {
  if (partNumber > pending.partCount) throw new AppError('invalid_request', `partNumber must be between 1 and ${pending.partCount}`);
}

/** POST /api/shares/upload/part-url: a presigned UploadPart URL (direct mode only). */
export async function presignPartUrl(rt: Runtime, caller: Uploader, input: PartRef): Promise<PartUrlResult> {
  const { pending, group } = await pendingFor(rt, caller, input);
  if (group.uploadMode !== 'direct' || !(await directUploadsAllowed(rt))) {
    throw new AppError('invalid_request', 'This upload goes through the server: PUT its parts to /api/shares/upload/chunk');
  }
  checkPartNumber(pending, input.partNumber);
  if (isGuest(caller)) await guestUploadStarted(rt, group.id);
  const storeUploadId = await ensureStoreUpload(rt, { ...pending, partSize: group.partSize });
  const size = expectedPartSize(Number(pending.declaredSize), group.partSize, input.partNumber);
  const presign = rt.storage.capabilities.presignedParts;
  if (!presign) throw new AppError('invalid_request', 'This upload goes through the server: PUT its parts to /api/shares/upload/chunk');
  const p = await presign.part(pending.storageKey, storeUploadId, input.partNumber, size, PRESIGN_SECONDS);
  return { url: p.url, headers: p.headers, expiresAt: p.expiresAt.toISOString() };
}

/**
 * What a proxy part needs of its pending upload: known in memory from init (this instance), else
 * read once (the pending session, its group pending and the caller's: ownership in the WHERE)
 * and kept. A known entry is the caller's only when group and owner match what was read.
 */
async function pendingPartFor(rt: Runtime, caller: Uploader, ref: PartRef): Promise<PendingPart> {
  const ownerId = uploaderOwnerId(caller);
  if (isGuest(caller) && ref.groupId !== caller.groupId) throw notFound('No such pending upload');
  const known = knownPendingPart(rt, ref.uploadId, ref.storageKey);
  if (known) {
    if (known.groupId !== ref.groupId || known.ownerId !== ownerId) throw notFound('No such pending upload');
    return known;
  }
  const { pending, group } = await pendingFor(rt, caller, ref);
  const part: PendingPart = {
    id: pending.id,
    groupId: group.id,
    ownerId: group.userId,
    uploadId: pending.uploadId,
    storeUploadId: pending.storeUploadId,
    storageKey: pending.storageKey,
    contentType: pending.contentType,
    partCount: pending.partCount,
    declaredSize: Number(pending.declaredSize),
    partSize: group.partSize,
  };
  rememberPendingParts(rt, [part]);
  return part;
}

/**
 * PUT /api/shares/upload/chunk (proxy mode): one part streamed straight into the store. The
 * announced length must be the part's exact size (413 above the part size), so a short or
 * long body is refused up front.
 */
export async function uploadChunk(rt: Runtime, caller: Uploader, ref: PartRef, body: Readable, contentLength: number): Promise<ChunkResult> {
  const pending = await pendingPartFor(rt, caller, ref);
  if (ref.partNumber > pending.partCount) throw new AppError('invalid_request', `partNumber must be between 1 and ${pending.partCount}`);
  if (contentLength > pending.partSize) throw new AppError('part_too_large', `A part is at most ${pending.partSize} bytes`);
  const expected = expectedPartSize(pending.declaredSize, pending.partSize, ref.partNumber);
  if (contentLength !== expected) {
    throw new AppError('size_mismatch', `Part ${ref.partNumber} of this file must be exactly ${expected} bytes, not ${contentLength}`);
  }
  if (isGuest(caller)) await guestUploadStarted(rt, pending.groupId);
  // The first part starts the store's upload; later ones find it in memory (or, from another
  // instance's first part, in the row the claim reads).
  pending.storeUploadId ??= await ensureStoreUpload(rt, pending);
  // The parts' CRC-32s make the file's, which the "Download all" ZIP needs (zlib's CRC is far
  // faster than the socket).
  let crc = 0;
  try {
    const { etag } = await rt.storage.uploadPart(pending.storageKey, pending.storeUploadId, ref.partNumber, body, contentLength, (chunk) => {
      crc = crc32(chunk, crc);
    });
    recordPartCrcSoon(rt, { pendingUploadId: pending.id, partNumber: ref.partNumber, etag, size: contentLength, crc32: crc });
    return { partNumber: ref.partNumber, etag };
  } catch (e) {
    // A client that went away is not a server fault (nor a database outage): no 5xx, no log.
    if (e === body.errored || e instanceof StorageIncompleteBodyError) {
      throw new AppError('invalid_request', 'The connection closed before the whole part arrived');
    }
    if (isStorageNotFound(e)) throw notFound('This upload was completed or cancelled');
    throw e;
  }
}
