import 'server-only';
import { findRequest, type RequestWithOwner } from '@/db/queries/requests';
import { reservedBy } from '@/db/queries/uploads';
import { findUserById } from '@/db/queries/users';
import type { FileRequestRow } from '@/db/schema';
import { requestUnlockCookie, unlockKey, verifyUnlock, type Cookies } from '../auth/unlock-cookie';
import { requestIdSchema } from '../contract/requests';
import { MAX_SHARE_BYTES, MAX_SHARE_FILES } from '../contract/shares';
import type { Env } from '../env';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';

export type RequestState = 'open' | 'locked' | 'expired' | 'full';

/** Whether FILE_REQUESTS lets this owner receive files now. */
export const ownerMayReceive = (env: Env, r: Pick<RequestWithOwner, 'ownerRole' | 'ownerStatus'>) =>
  r.ownerStatus === 'active' && (env.fileRequests === 'members' || (env.fileRequests === 'admin' && r.ownerRole === 'admin'));

export const isExpired = (r: FileRequestRow, nowMs = Date.now()) => r.expiresAt !== null && r.expiresAt.getTime() <= nowMs;
export const isFull = (r: FileRequestRow) => r.maxUploads !== null && r.uploadCount >= r.maxUploads;

/** The limits that apply to one upload: the request's own, within the service's and REQUEST_MAX_BYTES. */
export function effectiveLimits(env: Env, r: FileRequestRow): { maxFiles: number; maxBytes: number } {
  return {
    maxFiles: Math.min(r.maxFiles ?? MAX_SHARE_FILES, MAX_SHARE_FILES),
    maxBytes: Math.min(r.maxBytes === null ? MAX_SHARE_BYTES : Number(r.maxBytes), env.requestMaxBytes ?? MAX_SHARE_BYTES, MAX_SHARE_BYTES),
  };
}

/**
 * What the request's owner can still receive: their quota less what is stored and what
 * unfinished uploads hold (their own and their guests'), as the init's quota check counts it.
 * The guest page shows the smaller of this and the request's own limit, never the quota itself.
 */
export async function ownerFreeBytes(rt: Runtime, userId: string): Promise<number> {
  const owner = await findUserById(rt.db, userId);
  if (!owner) return 0;
  const held = await reservedBy(rt.db, userId);
  return Math.max(0, Number(owner.quotaBytes) - Number(owner.usedBytes) - held.bytes);
}

/**
 * A request as a guest reaches it: missing (unknown, closed, deleted, or its owner may not
 * receive files) or in one of the gate's states. Opening and unlocking consume nothing.
 */
export async function guestRequest(
  rt: Runtime,
  id: string,
  cookies: Cookies,
): Promise<{ state: 'missing' } | { state: RequestState; found: RequestWithOwner }> {
  if (!requestIdSchema.safeParse(id).success) return { state: 'missing' };
  const found = await findRequest(rt.db, id);
  if (!found || found.request.status !== 'open' || !ownerMayReceive(rt.env, found)) return { state: 'missing' };
  const r = found.request;
  if (isExpired(r)) return { state: 'expired', found };
  if (r.passwordHash && !(await hasRequestUnlock(rt, r, cookies))) return { state: 'locked', found };
  if (isFull(r)) return { state: 'full', found };
  return { state: 'open', found };
}

export const requestSubject = (r: FileRequestRow) => ({ kind: 'request' as const, id: r.id, createdAt: r.createdAt, passwordHash: r.passwordHash ?? '' });

export async function hasRequestUnlock(rt: Runtime, r: FileRequestRow, cookies: Cookies): Promise<boolean> {
  const value = cookies[requestUnlockCookie(r.id)];
  return verifyUnlock(await unlockKey(rt), requestSubject(r), value);
}

export const expiredError = () => new AppError('expired', 'This file request has expired: ask its owner for a new link');
export const fullError = () => new AppError('request_full', 'This file request has received all the uploads it takes: ask its owner for a new link');
export const missingError = () => notFound('No such file request: it may be closed or deleted');
