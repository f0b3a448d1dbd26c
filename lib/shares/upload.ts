import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { findPendingUpload, findShare, findShareGroup, listPendingUploads, reservedBytes, stalePendingGroups } from '@/db/queries/shares';
import { scheduleDeletion } from '@/db/queries/storage-gc';
import { pendingUploads, shareGroups, shareItems, users, type PendingUploadRow, type ShareGroupRow } from '@/db/schema';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { randomId } from '../auth/crypto';
import { hashPassword } from '../auth/passwords';
import { MAX_SHARE_BYTES, MAX_SHARE_FILES, type CompleteInput, type InitInput } from '../contract/shares';
import { AppError, notFound } from '../errors';
import { contentTypeFor } from '../http/mime';
import { pathKey, sanitizeRelativePath } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedFileKey, sharedGroupPrefix } from '../storage/keys';
import { isStorageNotFound, type ObjectInfo, type PartInfo } from '../storage/types';
import { capabilities, expectedPartSize, partCountFor } from './capabilities';
import { directUploadsAllowed } from './direct-uploads';
import { toShareDto, type ShareDto } from './share-dto';

const PRESIGN_SECONDS = 15 * 60;

export interface InitResult {
  groupId: string;
  mode: 'direct' | 'proxy';
  partSize: number;
  files: { clientPath: string; relativePath: string; uploadId: string; storageKey: string; partCount: number }[];
}

/**
 * Starts a share upload: checks every limit and the quota before anything is stored, reserves
 * the bytes under a lock on the owner's row (parallel inits cannot both squeeze in), then
 * starts one multi-part upload and writes one pending session per file.
 */
export async function initUpload(rt: Runtime, principal: Principal, input: InitInput, origin: string): Promise<InitResult> {
  if (input.files.length > MAX_SHARE_FILES) {
    throw new AppError('too_many_files', `A share holds at most ${MAX_SHARE_FILES} files; this one has ${input.files.length}`);
  }
  const seen = new Map<string, string>();
  const files = input.files.map((f) => {
    const relativePath = sanitizeRelativePath(f.clientPath);
    const key = pathKey(relativePath);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new AppError('duplicate_path', `"${f.clientPath}" and "${earlier}" are the same path`);
    }
    seen.set(key, f.clientPath);
    return { ...f, relativePath };
  });
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > MAX_SHARE_BYTES) throw new AppError('too_large', 'A share holds at most 50 GB');
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const caps = await capabilities(rt, origin);
  const ownerId = ownerIdOf(principal);
  const groupId = randomId(16);

  await rt.db.transaction(async (tx) => {
    if (ownerId) {
      const [owner] = await tx.select().from(users).where(eq(users.id, ownerId)).for('update');
      if (!owner) throw new AppError('unauthenticated', 'Sign in to continue');
      if (!isAdmin(principal)) {
        const reserved = await reservedBytes(tx, ownerId);
        const free = Number(owner.quotaBytes) - Number(owner.usedBytes) - reserved;
        if (total > free) {
          throw new AppError('quota_exceeded', `This upload needs ${total} bytes but only ${Math.max(0, free)} of your quota are free`);
        }
      }
    }
    await tx.insert(shareGroups).values({
      id: groupId,
      userId: ownerId,
      note: input.note ?? '',
      passwordHash,
      expiresAt,
      status: 'offline',
      uploadState: 'pending',
      uploadMode: caps.mode,
      partSize: caps.partSize,
      reservedBytes: total,
    });
  });

  try {
    const started = await mapLimit(files, 8, async (f) => {
      const storageKey = sharedFileKey(groupId, f.relativePath);
      const uploadId = await rt.storage.createMultipart(storageKey, { contentType: contentTypeFor(f.relativePath) });
      return { ...f, storageKey, uploadId, partCount: partCountFor(f.size, caps.partSize) };
    });
    for (let i = 0; i < started.length; i += 200) {
      await rt.db.insert(pendingUploads).values(
        started.slice(i, i + 200).map((f) => ({
          groupId,
          userId: ownerId,
          uploadId: f.uploadId,
          storageKey: f.storageKey,
          partCount: f.partCount,
          clientPath: f.clientPath,
          relativePath: f.relativePath,
          declaredSize: f.size,
          contentType: contentTypeFor(f.relativePath),
        })),
      );
    }
    return {
      groupId,
      mode: caps.mode,
      partSize: caps.partSize,
      files: started.map((f) => ({
        clientPath: f.clientPath,
        relativePath: f.relativePath,
        uploadId: f.uploadId,
        storageKey: f.storageKey,
        partCount: f.partCount,
      })),
    };
  } catch (e) {
    await discardGroup(rt, groupId).catch(() => {});
    throw e;
  }
}

/** The pending session named by the pair, if it belongs to this group and this caller. */
export async function pendingFor(
  rt: Runtime,
  principal: Principal,
  ref: { groupId: string; uploadId: string; storageKey: string },
): Promise<{ pending: PendingUploadRow; group: ShareGroupRow }> {
  const row = await findPendingUpload(rt.db, ref.uploadId, ref.storageKey);
  if (!row || row.group.id !== ref.groupId || row.group.userId !== ownerIdOf(principal) || row.group.uploadState !== 'pending') {
    throw notFound('No such pending upload');
  }
  return row;
}

function checkPartNumber(pending: PendingUploadRow, partNumber: number): void {
  if (partNumber > pending.partCount) {
    throw new AppError('invalid_request', `partNumber must be between 1 and ${pending.partCount}`);
  }
}

export async function partUrl(
  rt: Runtime,
  principal: Principal,
  input: { groupId: string; uploadId: string; storageKey: string; partNumber: number },
) {
  const { pending, group } = await pendingFor(rt, principal, input);
  if (group.uploadMode !== 'direct' || !(await directUploadsAllowed(rt))) {
    throw new AppError('invalid_request', 'This upload goes through the server: PUT its parts to /api/shares/upload/chunk');
  }
  checkPartNumber(pending, input.partNumber);
  const size = expectedPartSize(Number(pending.declaredSize), group.partSize, input.partNumber);
  const p = await rt.storage.presignPart(pending.storageKey, pending.uploadId, input.partNumber, size, PRESIGN_SECONDS);
  return { url: p.url, headers: p.headers, expiresAt: p.expiresAt.toISOString() };
}

/**
 * Proxy mode: one part streamed straight into the store. The announced length must be the
 * part's exact size (413 above the part size), so a short or long body is refused up front.
 */
export async function uploadChunk(
  rt: Runtime,
  principal: Principal,
  ref: { groupId: string; uploadId: string; storageKey: string; partNumber: number },
  body: import('node:stream').Readable,
  contentLength: number,
) {
  const { pending, group } = await pendingFor(rt, principal, ref);
  checkPartNumber(pending, ref.partNumber);
  if (contentLength > group.partSize) {
    throw new AppError('part_too_large', `A part is at most ${group.partSize} bytes`);
  }
  const expected = expectedPartSize(Number(pending.declaredSize), group.partSize, ref.partNumber);
  if (contentLength !== expected) {
    throw new AppError('size_mismatch', `Part ${ref.partNumber} of this file must be exactly ${expected} bytes, not ${contentLength}`);
  }
  const { etag } = await rt.storage.uploadPart(pending.storageKey, pending.uploadId, ref.partNumber, body, contentLength);
  return { partNumber: ref.partNumber, etag };
}

/** Which parts the store already holds for each file: lets a client resume after a crash. */
export async function uploadStatus(rt: Runtime, principal: Principal, groupId: string) {
  const group = await ownGroup(rt, principal, groupId);
  if (group.uploadState !== 'pending') throw new AppError('already_completed', 'This upload is already complete');
  const pending = await listPendingUploads(rt.db, groupId);
  return {
    groupId,
    mode: group.uploadMode,
    partSize: group.partSize,
    files: await mapLimit(pending, 8, async (p) => ({
      clientPath: p.clientPath,
      relativePath: p.relativePath,
      uploadId: p.uploadId,
      storageKey: p.storageKey,
      partCount: p.partCount,
      size: Number(p.declaredSize),
      ...(await partsForStatus(rt, p)),
    })),
  };
}

/** Parts already stored; a file an earlier complete attempt already merged counts as done. */
async function partsForStatus(rt: Runtime, p: PendingUploadRow) {
  try {
    const parts = await rt.storage.listParts(p.storageKey, p.uploadId);
    return { completed: false, parts: parts.map((x) => ({ partNumber: x.partNumber, size: x.size, etag: x.etag })) };
  } catch (e) {
    if (!isStorageNotFound(e)) throw e;
    const done = await rt.storage.head(p.storageKey);
    return { completed: done !== null && done.size === Number(p.declaredSize), parts: [] };
  }
}

/**
 * Completes every file of the group from what the store holds (ListParts), never from what the
 * client says, then publishes the share in one transaction whose conditional update decides
 * the race with a second complete or an abort.
 */
export async function completeUpload(rt: Runtime, principal: Principal, input: CompleteInput): Promise<ShareDto> {
  const group = await ownGroup(rt, principal, input.groupId);
  if (group.uploadState === 'complete') throw new AppError('already_completed', 'This upload is already complete');
  const pending = await listPendingUploads(rt.db, group.id);
  const named = new Map<string, CompleteInput['files'][number]>();
  for (const f of input.files) {
    const key = `${f.uploadId}\u0000${f.storageKey}`;
    if (named.has(key)) throw new AppError('invalid_request', `${f.storageKey} is named twice`);
    named.set(key, f);
  }
  const byKey = new Map(pending.map((p) => [`${p.uploadId}\u0000${p.storageKey}`, p]));
  for (const key of named.keys()) if (!byKey.has(key)) throw notFound('No such pending upload in this share');
  for (const p of pending) {
    const f = named.get(`${p.uploadId}\u0000${p.storageKey}`);
    if (!f) throw new AppError('upload_not_complete', `${p.relativePath} is missing from the request`);
    const numbers = new Set(f.parts.map((x) => x.partNumber));
    if (f.parts.length !== p.partCount || numbers.size !== p.partCount || [...numbers].some((n) => n > p.partCount)) {
      throw new AppError('upload_not_complete', `${p.relativePath} needs exactly ${p.partCount} parts`);
    }
  }

  // Check every file against the store first, so a missing part completes nothing.
  const checked: { pending: PendingUploadRow; parts: PartInfo[] | ObjectInfo }[] = [];
  for (const p of pending) {
    const state = await storedState(rt, group, p);
    if (state === 'size_mismatch') {
      await discardGroup(rt, group.id);
      throw new AppError('size_mismatch', `${p.relativePath} was declared as ${p.declaredSize} bytes but a different size arrived; the upload was cancelled`);
    }
    checked.push({ pending: p, parts: state });
  }
  const stored: { pending: PendingUploadRow; object: ObjectInfo }[] = [];
  for (const c of checked) {
    const object = Array.isArray(c.parts)
      ? await rt.storage.completeMultipart(
          c.pending.storageKey,
          c.pending.uploadId,
          c.parts.map((x) => ({ partNumber: x.partNumber, etag: x.etag })),
        )
      : c.parts;
    stored.push({ pending: c.pending, object });
  }

  const total = stored.reduce((n, s) => n + s.object.size, 0);
  const won = await rt.db.transaction(async (tx) => {
    const [row] = await tx
      .update(shareGroups)
      .set({ uploadState: 'complete', status: 'online', totalBytes: total, reservedBytes: 0, updatedAt: sql`now()` })
      .where(and(eq(shareGroups.id, group.id), eq(shareGroups.uploadState, 'pending')))
      .returning({ id: shareGroups.id });
    if (!row) return false;
    await tx.insert(shareItems).values(
      stored.map(({ pending: p, object }) => ({
        groupId: group.id,
        relativePath: p.relativePath,
        pathKey: pathKey(p.relativePath),
        storageKey: p.storageKey,
        size: object.size,
        contentType: p.contentType,
        etag: object.etag,
      })),
    );
    await tx.delete(pendingUploads).where(eq(pendingUploads.groupId, group.id));
    if (group.userId) {
      await tx.update(users).set({ usedBytes: sql`${users.usedBytes} + ${total}` }).where(eq(users.id, group.userId));
    }
    return true;
  });
  if (!won) {
    const now = await findShareGroup(rt.db, group.id);
    if (now?.uploadState === 'complete') throw new AppError('already_completed', 'This upload is already complete');
    // An abort won: its sweep may have run before our objects appeared, so remove them here.
    for (const s of stored) await rt.storage.delete(s.pending.storageKey).catch(() => {});
    throw notFound('This upload was cancelled');
  }
  const share = await findShare(rt.db, group.id);
  return toShareDto(share!);
}

/**
 * What the store holds for one file: its parts, ready to merge, or the object itself when an
 * earlier attempt merged it and then failed on a later file.
 */
async function storedState(rt: Runtime, group: ShareGroupRow, p: PendingUploadRow): Promise<PartInfo[] | ObjectInfo | 'size_mismatch'> {
  const declared = Number(p.declaredSize);
  let parts;
  try {
    parts = await rt.storage.listParts(p.storageKey, p.uploadId);
  } catch (e) {
    if (!isStorageNotFound(e)) throw e;
    const done = await rt.storage.head(p.storageKey);
    if (done) return done.size === declared ? done : 'size_mismatch';
    throw new AppError('upload_not_complete', `${p.relativePath} has no uploaded parts`);
  }
  const have = new Map(parts.map((x) => [x.partNumber, x]));
  for (let n = 1; n <= p.partCount; n++) {
    if (!have.has(n)) throw new AppError('upload_not_complete', `Part ${n} of ${p.relativePath} has not been uploaded`);
  }
  const mine = parts.filter((x) => x.partNumber <= p.partCount).sort((a, b) => a.partNumber - b.partNumber);
  const size = mine.reduce((n, x) => n + x.size, 0);
  const shapeOk = mine.every((x) => x.size === expectedPartSize(declared, group.partSize, x.partNumber));
  if (size !== declared || !shapeOk) return 'size_mismatch';
  return mine;
}

/** POST /api/shares/upload/abort: the caller's pending upload and everything it stored. */
export async function abortUpload(rt: Runtime, principal: Principal, groupId: string): Promise<void> {
  const group = await ownGroup(rt, principal, groupId);
  if (group.uploadState === 'complete') throw new AppError('already_completed', 'This upload is already complete; delete the share instead');
  if (!(await discardGroup(rt, groupId))) {
    const now = await findShareGroup(rt.db, groupId);
    if (now?.uploadState === 'complete') throw new AppError('already_completed', 'This upload is already complete; delete the share instead');
  }
}

/**
 * Drops a pending group's records and schedules its bytes (parts and objects under its
 * prefix) for deletion in one transaction, then deletes them. Conditional on the group still
 * being pending: of an abort and a complete, exactly one wins. False when it was not pending.
 */
export async function discardGroup(rt: Runtime, groupId: string): Promise<boolean> {
  const gcIds = await rt.db.transaction(async (tx) => {
    const gone = await tx
      .delete(shareGroups)
      .where(and(eq(shareGroups.id, groupId), eq(shareGroups.uploadState, 'pending')))
      .returning({ id: shareGroups.id });
    if (gone.length === 0) return null;
    return scheduleDeletion(tx, [sharedGroupPrefix(groupId)]);
  });
  if (!gcIds) return false;
  await runDeletions(rt, gcIds);
  return true;
}

/** Janitor: uploads left pending past the TTL (24 h) are aborted and their reservation freed. */
export async function abortStaleUploads(rt: Runtime): Promise<number> {
  let n = 0;
  for (const id of await stalePendingGroups(rt.db, rt.env.pendingUploadTtlMs)) {
    if (await discardGroup(rt, id)) n++;
  }
  return n;
}

async function ownGroup(rt: Runtime, principal: Principal, groupId: string): Promise<ShareGroupRow> {
  const group = await findShareGroup(rt.db, groupId);
  if (!group || group.userId !== ownerIdOf(principal)) throw notFound('No such upload');
  return group;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failed) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  // Every call in flight settles before an error is thrown, so cleanup never races them.
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw failed.error;
  return out;
}
