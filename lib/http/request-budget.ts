/**
 * A request budget per client address, in memory, taken before any database work (issue 39,
 * item 8): one address sending 150 small requests a second on 64 keep-alive connections used to
 * slow every download 100–1,000×, because each of its requests cost a session lookup, a query
 * or a page render. Each address (IPv6 per /64: lib/http/client-ip.ts) has a bucket of `burst`
 * requests refilled at `perSecond`; past it the request is answered 429 with Retry-After at once,
 * which costs next to nothing. Byte streams (share items, ZIPs, hosted files, upload parts) do
 * not take from it: they have their own per-address slots (lib/http/download-slots.ts), so a
 * flood of pages and API calls never queues a download.
 *
 * The same budget is kept per principal (principalKeyOf): a member's session or token flooding
 * from many addresses spends one.
 *
 * In-process on purpose: a budget counts what this process spends; behind several instances
 * each holds its own (a proxy in front can add a shared limit).
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { bearerOf } from './guards';
import { ADMIN_COOKIE, cookieValue, USER_COOKIE } from './cookies';

export interface Budget {
  /** 0 when `address` may go on, else the seconds until it may. */
  take(address: string): number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full ones (their owners have been quiet long enough) are dropped. */
const SWEEP_AT = 10_000;

export function requestBudget(perSecond: number, burst: number, now: () => number = () => performance.now()): Budget {
  if (perSecond <= 0) return { take: () => 0 };
  const buckets = new Map<string, Bucket>();
  const refill = (b: Bucket, t: number) => {
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
  };
  const sweep = (t: number) => {
    for (const [k, b] of buckets) {
      refill(b, t);
      if (b.tokens >= burst) buckets.delete(k);
    }
    // Keys made up faster than they refill (a flood of made-up tokens) must not grow the map
    // without end, nor make every request sweep it: the oldest half goes (they start afresh).
    for (const k of buckets.keys()) {
      if (buckets.size < SWEEP_AT / 2) break;
      buckets.delete(k);
    }
  };
  return {
    take(address) {
      const t = now();
      let b = buckets.get(address);
      if (!b) {
        if (buckets.size >= SWEEP_AT) sweep(t);
        buckets.set(address, (b = { tokens: burst, at: t }));
      } else refill(b, t);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - b.tokens) / perSecond));
    },
  };
}

/**
 * Who a request claims to be, known without the database (issue 39, item 8): its Bearer token or
 * session cookie, as a short hash (the map never holds a live secret). One member's session or
 * token sending from many addresses — a flood of share-password PATCHes on a botnet or a phone
 * network's many exits — then spends one budget, as one address does. A made-up token is a key
 * of its own, and its address's budget bounds those. Undefined when the request carries neither.
 */
export function principalKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const bearer = bearerOf(headers.authorization);
  const cookie = headers.cookie;
  const secret = bearer ?? (cookie ? (cookieValue(cookie, USER_COOKIE) ?? cookieValue(cookie, ADMIN_COOKIE)) : undefined);
  if (!secret) return undefined;
  return createHash('sha256').update(secret).digest('base64url').slice(0, 22);
}
