import 'server-only';
import { reservePendingGroup, setPendingGroupPassword } from '@/db/queries/uploads';
import { ownerIdOf, type Principal } from '../auth/principal';
import { randomId } from '../auth/crypto';
import { limitPasswordSetting, setterKey } from '../auth/password-setting';
import { hashPassword } from '../auth/passwords';
import type { InitInput } from '../contract/shares';
import type { InitResult } from '../contract/upload-protocol';
import type { Runtime } from '../runtime';
import { discardGroup } from './abort-upload';
import { initAddition } from './add-to-share';
import { capabilities } from './capabilities';
import { ownerCheck, planFiles, startUploads } from './start-uploads';

/**
 * POST /api/shares/upload/init: checks every limit and the quota before anything is stored,
 * reserves the bytes under a lock on the owner's row (parallel inits cannot both squeeze in),
 * then writes one pending session per file (the store's uploads start at each file's first part).
 */
export async function initUpload(rt: Runtime, principal: Principal, input: InitInput, origin: string): Promise<InitResult> {
  if (input.share_id) return initAddition(rt, principal, { ...input, share_id: input.share_id }, origin);
  const { files, reserve } = planFiles(input.files);
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  // The password's hash is the costly step: counted first, computed only once every cap passed.
  if (input.password) await limitPasswordSetting(rt, principal);
  const caps = await capabilities(rt, origin);
  const ownerId = ownerIdOf(principal);
  const groupId = randomId(16);

  const group = {
    id: groupId,
    userId: ownerId,
    note: input.note ?? '',
    passwordHash: null,
    expiresAt,
    status: 'offline' as const,
    uploadState: 'pending' as const,
    uploadMode: caps.mode,
    partSize: caps.partSize,
    reservedBytes: reserve,
    maxDownloads: input.max_downloads ?? null,
  };
  await reservePendingGroup(rt.db, group, ownerCheck(rt, principal, files.length, reserve));

  try {
    if (input.password) await setPendingGroupPassword(rt.db, groupId, await hashPassword(input.password, setterKey(principal)));
  } catch (e) {
    await discardGroup(rt, groupId).catch(() => {});
    throw e;
  }
  return startUploads(rt, groupId, caps, files, ownerId);
}
