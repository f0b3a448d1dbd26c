/**
 * The rules of an unlock cookie accepted before, without the database or a secret: shared by
 * lib/auth/unlock-cookie.ts (the main thread) and the hosted front (lib/http/hosted-front.ts),
 * which must answer exactly when the main thread would.
 */
import { BoundedCache } from '../bounded-cache';

/**
 * How long a reading of the unlock key stays usable: other instances follow a change of the
 * Admin Token within it, and the hot path never queries per request.
 */
export const KEY_TTL_MS = 1000;

/**
 * Where a key read at `readAt` stands at `now`: unusable past its life, usable but due for a
 * reading in the background past half of it (so a steady stream of visitors never finds it
 * stale, and all at once takes the full path), fresh before.
 */
export function keyAge(readAt: number, now: number): 'stale' | 'due' | 'fresh' {
  if (!readAt || now - readAt >= KEY_TTL_MS) return 'stale';
  return now - readAt >= KEY_TTL_MS / 2 ? 'due' : 'fresh';
}

/** Whether a cookie `<expiry seconds>.<hmac>` is still before its expiry. */
export const unexpired = (value: string, now: number) => Number(value.slice(0, value.indexOf('.'))) * 1000 > now;

/** Accepted cookies kept for the check without an HMAC: the oldest go first past this many. */
export const newVerifiedUnlocks = <V>() => new BoundedCache<string, V>({ maxEntries: 10_000 });
