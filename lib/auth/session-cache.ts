import 'server-only';
import { EPOCH } from '@/db/queries/settings';
import { epochCache } from '../epoch-cache';
import type { Runtime } from '../runtime';
import { sha256Hex } from './crypto';
import type { Principal } from './principal';
import { loadSession } from './sessions';

/**
 * Resolved sessions for the proxy chunk route (PUT /api/shares/upload/chunk): a share of
 * 500 small files sends 500 parts in a row with one session, and looking that session up was the
 * one database round trip left per part (issue 28, item 2). Pages use it too, for the signed-in
 * member's language only (lib/http/request-locale.ts). Everything that ends a session or
 * changes its user — logout, a password change, disabling, a role change, an account deletion,
 * a new Admin Token — bumps the sessions epoch in its own transaction (db/queries/sessions.ts,
 * db/queries/users.ts): this instance drops every entry as that commits, another instance at its
 * next reading of the epoch (4 a second on PostgreSQL). An entry ends with its session's expiry,
 * and is not used once this instance has not read the epoch for 2 s (the database unreachable
 * from here only). Only a session that grants something is kept; a wrong token costs its lookup
 * (and the guards count it) every time.
 *
 * The cached principal's user row is as it was read: the chunk route needs only who the caller
 * is (its own pending upload's owner), never its usage or quota.
 */
const cache = epochCache<{ principal: Principal; expiresAt: Date } | null>({
  name: 'session-cache',
  epoch: EPOCH.sessions,
  maxEntries: 10_000,
  staleAfterMs: 2_000,
  keep: (s) => s !== null,
});

export async function resolveTokenCached(rt: Runtime, token: string): Promise<Principal | null> {
  if (!token || token.length > 512) return null;
  const tokenHash = sha256Hex(token);
  let s = await cache.get(rt, tokenHash, () => loadSession(rt, tokenHash));
  // Past its expiry an entry is read again (and then refused by the query).
  if (s && s.expiresAt.getTime() <= Date.now()) s = await loadSession(rt, tokenHash);
  return s?.principal ?? null;
}
