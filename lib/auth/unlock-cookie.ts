import 'server-only';
import { mirrorUnlockKey, sendUnlock } from '../front-link';
import { getServerSecret, perRuntime, type Runtime } from '../runtime';
import { getAdminCredentialHash } from './admin-credential';
import { hmac, safeEqual } from './crypto';
import { KEY_TTL_MS, keyAge, newVerifiedUnlocks, unexpired } from './unlock-rules';

export const UNLOCK_MAX_AGE = 7 * 24 * 3600;

export const projectUnlockCookie = (slug: string) => `htmls_project_unlock_${slug}`;
export const shareUnlockCookie = (id: string) => `htmls_share_unlock_${id}`;
export const requestUnlockCookie = (id: string) => `htmls_request_unlock_${id}`;

/** A request's cookies by name, as its HTTP adapter parsed them (lib/http/cookies.ts); {} for none. */
export type Cookies = Readonly<Record<string, string | undefined>>;

/** Each service's key (its own server secret and admin credential), and the cookies it accepted. */
const stateOf = perRuntime(() => ({
  cache: { at: 0 } as { key?: string; at: number; reading?: Promise<string> },
  /** Cookies verifyUnlock accepted, by subject key + value: the key they were checked under. */
  verified: newVerifiedUnlocks<string>(),
}));

/**
 * The HMAC key of unlock cookies: derived from the server secret and the current admin
 * credential, so changing the Admin Token voids every guest unlock. Re-read at most once a
 * second (the hot path must not query per request); other instances follow within that.
 */
export async function unlockKey(rt: Runtime): Promise<string> {
  const { cache } = stateOf(rt);
  if (cache.key && Date.now() - cache.at < KEY_TTL_MS) return cache.key;
  return readKey(rt);
}

/** One read at a time: the requests that find the key stale together wait for the same one. */
function readKey(rt: Runtime): Promise<string> {
  const { cache } = stateOf(rt);
  if (cache.reading) return cache.reading;
  // Assigned before its first await resumes, so the check below sees it.
  let reading!: Promise<string>;
  reading = (async () => {
    const credential = (await getAdminCredentialHash(rt)) ?? 'none';
    const key = hmac(await getServerSecret(rt), 'unlock-cookie', credential);
    // A forget() while this read was under way voids it: the change may not be in it.
    if (cache.reading === reading) {
      const changed = key !== cache.key;
      Object.assign(cache, { key, at: Date.now() });
      // On PGlite this process makes every change of the key (forgetUnlockKey moves the
      // generation): the front need not see it re-read to trust it.
      mirrorUnlockKey(rt, changed, rt.env.databaseUrl ? cache.at : Infinity);
    }
    return key;
  })().finally(() => {
    if (cache.reading === reading) cache.reading = undefined;
  });
  cache.reading = reading;
  return reading;
}

export function forgetUnlockKey(rt: Runtime): void {
  const { cache } = stateOf(rt);
  cache.key = undefined;
  cache.reading = undefined;
  mirrorUnlockKey(rt, true, 0);
}

/** The hosted front found the key past half its life: read it again (once at a time). */
export function refreshUnlockKey(rt: Runtime): void {
  if (!stateOf(rt).cache.reading) readKey(rt).catch(() => {});
}

/** What a cookie is checked against, as one string: `verifiedUnlock` looks it up with the value. */
export const unlockSubjectKey = (s: UnlockSubject) => `${s.kind}\n${s.id}\n${s.createdAt.getTime()}\n${s.passwordHash}\n`;

/** Remembers a cookie verifyUnlock accepted under `key`, for verifiedUnlock. */
export function rememberUnlock(rt: Runtime, key: string, subjectKey: string, value: string): void {
  const { cache, verified } = stateOf(rt);
  verified.set(subjectKey + value, key);
  // The hosted front answers this cookie from then on too (under this key only).
  if (key === cache.key) sendUnlock(rt, subjectKey, value);
}

/**
 * Without an await or an HMAC: true only for a cookie accepted before for this very subject
 * (id, creation time, password hash) under the current key while that key is fresh (a changed
 * Admin Token or password fails this as it fails verifyUnlock), and not expired. False means
 * "not known", not "refused": the caller takes the full path.
 */
export function verifiedUnlock(rt: Runtime, subjectKey: string, value: string | undefined, nowMs = Date.now()): boolean {
  const { cache, verified } = stateOf(rt);
  if (!value || !cache.key) return false;
  const age = keyAge(cache.at, nowMs);
  if (age === 'stale') return false;
  if (age === 'due' && !cache.reading) readKey(rt).catch(() => {});
  if (verified.peek(subjectKey + value) !== cache.key) return false;
  return unexpired(value, nowMs);
}

export interface UnlockSubject {
  kind: 'project' | 'share' | 'request';
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
