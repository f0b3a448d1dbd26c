import 'server-only';
import { findShareOwnedBy, updateShareGroup, type ShareGroupPatch } from '@/db/queries/shares';
import { limitPasswordSetting, setterKey } from '../auth/password-setting';
import { hashPassword } from '../auth/passwords';
import type { Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import type { UpdateShareInput } from '../contract/shares';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { toShareDto, type ShareDto } from './share-dto';

/** PATCH /api/shares/:id — another member's share is "not found", never "forbidden". */
export async function updateShare(rt: Runtime, principal: Principal, id: string, input: UpdateShareInput): Promise<ShareDto> {
  const owner = managedBy(principal);
  const share = await findShareOwnedBy(rt.db, owner, id);
  if (!share) throw notFound('No such share');
  if (input.status === 'online' && share.group.uploadState !== 'complete') {
    throw new AppError('upload_not_complete', 'This share cannot go online before its upload is complete');
  }
  const patch: ShareGroupPatch = {};
  if (input.note !== undefined) patch.note = input.note;
  if (input.expires_at !== undefined) patch.expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
  if (input.password) await limitPasswordSetting(rt, principal);
  if (input.password !== undefined) patch.passwordHash = input.password ? await hashPassword(input.password, setterKey(principal)) : null;
  if (input.status !== undefined) patch.status = input.status;
  if (input.max_downloads !== undefined) patch.maxDownloads = input.max_downloads;
  if (Object.keys(patch).length === 0) return toShareDto(share);
  const group = await updateShareGroup(rt.db, owner, id, patch);
  if (!group) throw notFound('No such share');
  return toShareDto({ ...share, group });
}
