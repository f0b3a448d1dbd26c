import 'server-only';
import { findShare, findShareGroup, type ShareWithItems } from '@/db/queries/shares';
import type { ShareGroupRow, ShareItemRow } from '@/db/schema';
import { shareUnlockCookie, unlockKey, verifyUnlock, type Cookies } from '../auth/unlock-cookie';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { shareIdSchema } from '../contract/shares';
import { unflushedDownloads } from './count-downloads';
import { loadShareItem } from './share-item-cache';

type GateState = 'open' | 'locked' | 'expired' | 'exhausted';

export type GuestAccess = { state: GateState; share: ShareWithItems } | { state: 'missing' };

/** The same gate without the item list (the byte path looks up its one item by index). */
export type GuestGroupAccess = { state: GateState; share: { group: ShareGroupRow } } | { state: 'missing' };

/**
 * The one guest gate of /f/<id> and every /f/<id>/<path>: missing, offline or still uploading
 * is 404 (nothing revealed), past expiry 410, password without a valid cookie 401, download
 * limit reached 410 (`exhausted`; checked after the password so it reveals nothing either).
 */
export const guestAccess = (rt: Runtime, id: string, cookies: Cookies): Promise<GuestAccess> =>
  gateLoaded(rt, id, cookies, (rt) => findShare(rt.db, id));

/** guestAccess without reading the items: one indexed row. */
export const guestGroupAccess = (rt: Runtime, id: string, cookies: Cookies): Promise<GuestGroupAccess> =>
  gateLoaded(rt, id, cookies, async (rt) => {
    const group = await findShareGroup(rt.db, id);
    return group && { group };
  });

/** The gate over whatever `load` reads of the share (with or without its items). */
async function gateLoaded<S extends { group: ShareGroupRow }>(
  rt: Runtime,
  id: string,
  cookies: Cookies,
  load: (rt: Runtime) => Promise<S | null>,
): Promise<{ state: GateState; share: S } | { state: 'missing' }> {
  if (!shareIdSchema.safeParse(id).success) return { state: 'missing' };
  const share = await load(rt);
  if (!share) return { state: 'missing' };
  const state = await gate(rt, share.group, cookies);
  return state === 'missing' ? { state } : { state, share };
}

/**
 * guestGroupAccess and the one item at `relativePath` (null when none) in one indexed query,
 * or none when cached (./share-item-cache.ts): the byte path never reads the item list.
 */
export async function guestItemAccess(
  rt: Runtime,
  id: string,
  relativePath: string,
  cookies: Cookies,
): Promise<{ access: GuestGroupAccess; item: ShareItemRow | null }> {
  // A control character is never part of a stored path (and PostgreSQL refuses a NUL in text):
  // such a path matches no item, after the gate like any other unknown path.
  const path = /[\u0000-\u001f\u007f]/.test(relativePath) ? '' : relativePath;
  const access = await gateLoaded(rt, id, cookies, (rt) => loadShareItem(rt, id, path));
  if (access.state === 'missing') return { access, item: null };
  const { group, item } = access.share;
  return { access: { state: access.state, share: { group } }, item };
}

async function gate(rt: Runtime, group: ShareGroupRow, cookies: Cookies): Promise<GateState | 'missing'> {
  if (group.status !== 'online' || group.uploadState !== 'complete') return 'missing';
  if (group.expiresAt && group.expiresAt.getTime() <= Date.now()) return 'expired';
  if (group.passwordHash && !(await hasUnlockCookie(rt, group, cookies))) return 'locked';
  if (downloadLimitReached(rt, group)) return 'exhausted';
  return 'open';
}

/** max_downloads reached, counting this instance's downloads not yet written too. */
function downloadLimitReached(rt: Runtime, group: ShareGroupRow): boolean {
  if (group.maxDownloads === null) return false;
  return Number(group.downloadCount) + unflushedDownloads(rt, group.id) >= group.maxDownloads;
}

/** The download paths' reading of a gate that is not open: 404, 410 expired or download_limit. */
export function refusal(state: Exclude<GateState, 'open' | 'locked'> | 'missing'): AppError {
  if (state === 'expired') return new AppError('expired', 'This share has expired');
  if (state === 'exhausted') return new AppError('download_limit', 'This share has reached its download limit');
  return notFound();
}

async function hasUnlockCookie(rt: Runtime, group: ShareGroupRow, cookies: Cookies): Promise<boolean> {
  const value = cookies[shareUnlockCookie(group.id)];
  return verifyUnlock(await unlockKey(rt), shareSubject({ group }), value);
}

export const shareSubject = (share: { group: ShareGroupRow }) => ({
  kind: 'share' as const,
  id: share.group.id,
  createdAt: share.group.createdAt,
  passwordHash: share.group.passwordHash ?? '',
});
