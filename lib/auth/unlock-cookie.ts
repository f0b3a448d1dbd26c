import 'server-only';
import { processState } from '../process-state';
import { getServerSecret, type Runtime } from '../runtime';
import { getAdminCredentialHash } from './admin-credential';
import { hmac, safeEqual } from './crypto';

export const UNLOCK_MAX_AGE = 7 * 24 * 3600;

export const projectUnlockCookie = (slug: string) => `htmls_project_unlock_${slug}`;
export const shareUnlockCookie = (id: string) => `htmls_share_unlock_${id}`;

const KEY_TTL_MS = 1000;
const cache = processState<{ key?: string; at: number }>('unlock-key', () => ({ at: 0 }));

/**
 * The HMAC key of unlock cookies: derived from the server secret and the current admin
 * credential, so changing the Admin Token voids every guest unlock. Re-read at most once a
 * second (the hot path must not query per request); other instances follow within that.
 */
export async function unlockKey(rt: Runtime): Promise<string> {
  if (cache.key && Date.now() - cache.at < KEY_TTL_MS) return cache.key;
  const credential = (await getAdminCredentialHash(rt)) ?? 'none';
  cache.key = hmac(await getServerSecret(rt), 'unlock-cookie', credential);
  cache.at = Date.now();
  return cache.key;
}

export function forgetUnlockKey(): void {
  cache.key = undefined;
}

export interface UnlockSubject {
  kind: 'project' | 'share';
  id: string;
  createdAt: Date;
  passwordHash: string;
}

const mac = (key: string, s: UnlockSubject, exp: number) =>
  hmac(key, s.kind, s.id, s.createdAt.getTime(), s.passwordHash, exp);

/** `<expiry seconds>.<hmac>`: binds the id, its creation time, the current hash and expiry. */
export function signUnlock(key: string, s: UnlockSubject, nowMs = Date.now()): string {
  const exp = Math.floor(nowMs / 1000) + UNLOCK_MAX_AGE;
  return `${exp}.${mac(key, s, exp)}`;
}

export function verifyUnlock(key: string, s: UnlockSubject, value: string | undefined, nowMs = Date.now()): boolean {
  if (!value) return false;
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return false;
  const exp = Number(m[1]);
  if (exp * 1000 <= nowMs) return false;
  return safeEqual(m[2], mac(key, s, exp));
}
