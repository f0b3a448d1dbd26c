import 'server-only';
import { findOwnShareGroup, reservePendingGroup, shareContents } from '@/db/queries/uploads';
import { ownerIdOf, type Principal } from '../auth/principal';
import { randomId } from '../auth/crypto';
import { MAX_SHARE_BYTES, MAX_SHARE_FILES, type InitInput } from '../contract/shares';
import type { InitResult } from '../contract/upload-protocol';
import { AppError, notFound } from '../errors';
import { formatBytes } from '../format-bytes';
import { pathKey } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { capabilities } from './capabilities';
import { ownerCheck, planFiles, startUploads } from './start-uploads';

/**
 * POST /api/shares/upload/init with `share_id`: files added to one of the caller's published
 * shares, on the same protocol. The addition is a pending group of its own (`adds_to`), so its
 * parts, resume, abort and the janitor work unchanged and guests keep seeing the share as it
 * was; its complete moves every file into the share at once (publishAddition). The share's
 * limits (500 files, 50 GB, unique paths) apply to the share as a whole, here and again at
 * complete, when other additions may have landed meanwhile.
 */
export async function initAddition(rt: Runtime, principal: Principal, input: InitInput & { share_id: string }, origin: string): Promise<InitResult> {
  const ownerId = ownerIdOf(principal);
  const share = await findOwnShareGroup(rt.db, input.share_id, ownerId);
  if (!share || share.addsTo) throw notFound('No such share');
  if (share.uploadState !== 'complete') throw new AppError('upload_not_complete', 'This share is still uploading: finish or discard that upload before adding files');
  const { files, total, reserve } = planFiles(input.files);
  checkAddition(await shareContents(rt.db, share.id, files.map((f) => pathKey(f.relativePath))), files.length, total);
  const caps = await capabilities(rt, origin);
  const groupId = randomId(16);
  await reservePendingGroup(
    rt.db,
    {
      id: groupId,
      userId: ownerId,
      addsTo: share.id,
      status: 'offline',
      uploadState: 'pending',
      uploadMode: caps.mode,
      partSize: caps.partSize,
      reservedBytes: reserve,
    },
    ownerCheck(rt, principal, files.length, reserve),
  );
  return startUploads(rt, groupId, caps, files, ownerId, share.id);
}

/**
 * The share's limits over what it holds (`now`) and what is being added: at most 500 files and
 * 50 GB in all, and no added path the share already has. Throws the refusal a person can act on.
 */
export function checkAddition(now: { files: number; bytes: number; taken: string[] }, addedFiles: number, addedBytes: number): void {
  if (now.taken.length > 0) {
    const [first] = now.taken;
    const more = now.taken.length > 1 ? ` (and ${now.taken.length - 1} more)` : '';
    throw new AppError('duplicate_path', `The share already has "${first}"${more}: remove it first or rename the file you add`);
  }
  if (now.files + addedFiles > MAX_SHARE_FILES) {
    throw new AppError('too_many_files', `A share holds at most ${MAX_SHARE_FILES} files; this one has ${now.files} and ${addedFiles} would be added`);
  }
  if (now.bytes + addedBytes > MAX_SHARE_BYTES) {
    throw new AppError('too_large', `A share holds at most 50 GB; this one holds ${formatBytes(now.bytes)} and ${formatBytes(addedBytes)} would be added`);
  }
}
