import 'server-only';
import { randomUUID } from 'node:crypto';
import { insertPendingUploads, type HeldByOwner, type reservePendingGroup } from '@/db/queries/uploads';
import { randomId } from '../auth/crypto';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { MAX_SHARE_BYTES, MAX_SHARE_FILES, type InitInput } from '../contract/shares';
import type { InitResult } from '../contract/upload-protocol';
import { AppError } from '../errors';
import { formatBytes } from '../format-bytes';
import { contentTypeFor } from '../mime';
import { pathKey, sanitizeRelativePath } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { sharedFileKey } from '../storage/keys';
import { discardGroup } from './abort-upload';
import { partCountFor } from './capabilities';
import { rememberPendingParts } from './pending-parts';

/*
 * The steps every init shares — a member's (init-upload.ts), an addition to a share
 * (add-to-share.ts), a guest's (lib/requests/guest-upload.ts) and the one-request upload: the
 * files planned against the service's limits, the owner's caps and quota checked under the
 * row lock, and the pending sessions written (the store's uploads start at each first part).
 */

export type PlannedFile = InitInput['files'][number] & { relativePath: string };

/**
 * The files of an init as they will be stored: the service's limits (500 files, 50 GB), each
 * sanitized path unique, and the bytes the upload reserves while pending.
 */
export function planFiles(list: InitInput['files']): { files: PlannedFile[]; total: number; reserve: number } {
  if (list.length > MAX_SHARE_FILES) {
    throw new AppError('too_many_files', `A share holds at most ${MAX_SHARE_FILES} files; this one has ${list.length}`);
  }
  const seen = new Map<string, string>();
  const files = list.map((f) => {
    const relativePath = sanitizeRelativePath(f.clientPath);
    const key = pathKey(relativePath);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new AppError('duplicate_path', `"${f.clientPath}" and "${earlier}" are the same path`);
    seen.set(key, f.clientPath);
    return { ...f, relativePath };
  });
  const total = files.reduce((n, f) => n + f.size, 0);
  // Every file holds at least MIN_RESERVATION of the quota while pending: its session costs
  // something even when the file is empty, so the quota bounds them too.
  const reserve = files.reduce((n, f) => n + Math.max(f.size, MIN_RESERVATION), 0);
  if (total > MAX_SHARE_BYTES) throw new AppError('too_large', 'A share holds at most 50 GB');
  return { files, total, reserve };
}

/**
 * The pending sessions of a group just reserved, one per file. The store's multi-part uploads
 * start at each file's first part (lib/shares/store-upload.ts), so an init that sends nothing
 * holds nothing in the store; the client's `uploadId` is a handle made here. On any failure the
 * group is discarded.
 */
export async function startUploads(
  rt: Runtime,
  groupId: string,
  caps: { mode: 'direct' | 'proxy'; partSize: number },
  files: PlannedFile[],
  ownerId: string | null,
  addsTo: string | null = null,
): Promise<InitResult> {
  try {
    const rows = files.map((f) => ({
      id: randomUUID(),
      groupId,
      userId: ownerId,
      uploadId: randomId(24),
      storeUploadId: null,
      storageKey: sharedFileKey(groupId, f.relativePath, addsTo),
      partCount: partCountFor(f.size, caps.partSize),
      clientPath: f.clientPath,
      relativePath: f.relativePath,
      declaredSize: f.size,
      contentType: contentTypeFor(f.relativePath),
    }));
    await insertPendingUploads(rt.db, rows);
    // Proxy parts come back to this server: what they need of their upload is known from here on.
    if (caps.mode === 'proxy') rememberPendingParts(rt, 
      rows.map((r) => ({ id: r.id, groupId, ownerId, uploadId: r.uploadId, storeUploadId: null, storageKey: r.storageKey, contentType: r.contentType, partCount: r.partCount, declaredSize: r.declaredSize, partSize: caps.partSize })),
    );
    return {
      groupId,
      mode: caps.mode,
      partSize: caps.partSize,
      files: rows.map((r) => ({ clientPath: r.clientPath, relativePath: r.relativePath, uploadId: r.uploadId, storageKey: r.storageKey, partCount: r.partCount })),
    };
  } catch (e) {
    await discardGroup(rt, groupId).catch(() => {});
    throw e;
  }
}

/**
 * What an init checks under the owner's row lock: the pending caps and, but for the
 * administrator, the quota with what is already reserved. Null for the Admin Token's own shares.
 */
export function ownerCheck(rt: Runtime, principal: Principal, files: number, reserve: number): Parameters<typeof reservePendingGroup>[2] {
  const ownerId = ownerIdOf(principal);
  if (ownerId === null) return null;
  return {
    id: ownerId,
    check: (owner, held) => {
      if (!owner || !held) throw new AppError('unauthenticated', 'Sign in to continue');
      checkPendingCaps(rt, held, files);
      if (!isAdmin(principal)) checkQuota(Number(owner.quotaBytes), Number(owner.usedBytes), held, reserve);
    },
  };
}

/** Bytes of quota each pending file holds at least (an empty file too). */
export const MIN_RESERVATION = 1024;

/**
 * A member holds at most MAX_PENDING_UPLOADS unfinished uploads and MAX_PENDING_FILES files in
 * them: each is a multi-part session in the store, and nothing else bounds empty files.
 * Runs under the owner's row lock, so parallel inits cannot both take the last slot.
 */
export function checkPendingCaps(rt: Runtime, held: HeldByOwner, newFiles: number): void {
  const { maxPendingUploads, maxPendingFiles } = rt.env;
  if (held.uploads >= maxPendingUploads) {
    throw new AppError('too_many_pending', `You have ${held.uploads} unfinished uploads (at most ${maxPendingUploads}): resume or discard one first`);
  }
  if (held.files + newFiles > maxPendingFiles) {
    throw new AppError('too_many_pending', `Unfinished uploads may hold at most ${maxPendingFiles} files; ${held.files} are waiting and this one adds ${newFiles}: resume or discard one first`);
  }
}

/** A refusal a person can act on: sizes in human units, and what holds the rest of the quota. */
export function checkQuota(quota: number, used: number, reserved: { bytes: number; uploads: number }, wanted: number): void {
  const free = Math.max(0, quota - used - reserved.bytes);
  if (wanted <= free) return;
  const held =
    reserved.uploads > 0
      ? ` ${formatBytes(reserved.bytes)} is held by ${reserved.uploads === 1 ? 'an unfinished upload' : `${reserved.uploads} unfinished uploads`}: resume or discard ${reserved.uploads === 1 ? 'it' : 'them'} to free it.`
      : '';
  // Two sizes that round alike would read as a contradiction: then say the bytes.
  const [need, have] = formatBytes(wanted) === formatBytes(free) ? [`${wanted.toLocaleString('en-US')} bytes`, `${free.toLocaleString('en-US')} bytes`] : [formatBytes(wanted), formatBytes(free)];
  throw new AppError('quota_exceeded', `This upload needs ${need} but only ${have} of your quota is free.${held}`);
}
