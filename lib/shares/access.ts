import 'server-only';
import { findShare, type ShareWithItems } from '@/db/queries/shares';
import { shareUnlockCookie, unlockKey, verifyUnlock } from '../auth/unlock-cookie';
import { parseCookies } from '../http/cookies';
import type { Runtime } from '../runtime';
import { shareIdSchema } from '../contract/shares';

export type GuestAccess =
  | { state: 'open'; share: ShareWithItems }
  | { state: 'locked'; share: ShareWithItems }
  | { state: 'expired'; share: ShareWithItems }
  | { state: 'missing' };

/**
 * The one guest gate of /f/<id> and every /f/<id>/<path>: missing, offline or still uploading
 * is 404 (nothing revealed), past expiry 410, password without a valid cookie 401.
 */
export async function guestAccess(rt: Runtime, id: string, cookieHeader: string | null | undefined): Promise<GuestAccess> {
  if (!shareIdSchema.safeParse(id).success) return { state: 'missing' };
  const share = await findShare(rt.db, id);
  if (!share || share.group.status !== 'online' || share.group.uploadState !== 'complete') return { state: 'missing' };
  if (share.group.expiresAt && share.group.expiresAt.getTime() <= Date.now()) return { state: 'expired', share };
  if (share.group.passwordHash && !(await hasUnlockCookie(rt, share, cookieHeader))) return { state: 'locked', share };
  return { state: 'open', share };
}

async function hasUnlockCookie(rt: Runtime, share: ShareWithItems, cookieHeader: string | null | undefined): Promise<boolean> {
  const value = parseCookies(cookieHeader)[shareUnlockCookie(share.group.id)];
  return verifyUnlock(await unlockKey(rt), shareSubject(share), value);
}

export const shareSubject = (share: ShareWithItems) => ({
  kind: 'share' as const,
  id: share.group.id,
  createdAt: share.group.createdAt,
  passwordHash: share.group.passwordHash ?? '',
});
