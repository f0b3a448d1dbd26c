import 'server-only';
import { findLiveAccessToken, recordAccessTokenUse } from '@/db/queries/access-tokens';
import { SECRET_PREFIX } from '../contract/scopes';
import { perRuntime, type Runtime } from '../runtime';
import { adminCredentialTag } from './admin-credential';
import { sha256Hex } from './crypto';
import type { Principal } from './principal';

/** Last use is written at most this often per token (and address change), not on every request. */
const LAST_USE_EVERY_MS = 60 * 1000;

export const isAccessTokenSecret = (token: string) => token.startsWith(SECRET_PREFIX);

/**
 * The principal an access token acts as: its owner as the owner is now (a disabled or deleted
 * owner, an expired token, or an Admin Token session's token made under an older Admin Token
 * resolve to nothing), carrying the token's grant for the scope check (lib/auth/scopes.ts).
 */
export async function resolveAccessToken(rt: Runtime, secret: string, ip: string): Promise<Principal | null> {
  if (secret.length > 200) return null;
  const tokenHash = sha256Hex(secret);
  const row = await findLiveAccessToken(rt.db, tokenHash);
  if (!row) return null;
  const { token, user } = row;
  const grant = { tokenId: token.id, scopes: token.scopes, name: token.name, prefix: token.prefix };
  let principal: Principal;
  if (token.userId === null) {
    if (token.credentialTag !== (await adminCredentialTag(rt))) return null;
    principal = { kind: 'admin', user: null, via: 'access-token', tokenHash, grant };
  } else {
    if (!user || user.status !== 'active') return null;
    principal = { kind: 'user', user, tokenHash, grant };
  }
  await noteUse(rt, token.id, token.lastUsedAt, token.lastUsedIp, ip);
  return principal;
}

/**
 * Records the time and address of a use when the stored one is older than a minute or from
 * another address: at most one write a minute per token however busy the script. The
 * in-process map keeps parallel requests from writing the same minute twice.
 */
/** The last use written per token (parallel requests of one minute write it once). */
const writtenOf = perRuntime(() => new Map<string, { at: number; ip: string }>());

async function noteUse(rt: Runtime, id: string, storedAt: Date | null, storedIp: string | null, ip: string): Promise<void> {
  const written = writtenOf(rt);
  const now = Date.now();
  const last = written.get(id) ?? (storedAt ? { at: storedAt.getTime(), ip: storedIp ?? '' } : undefined);
  if (last && now - last.at < LAST_USE_EVERY_MS && last.ip === ip) return;
  written.set(id, { at: now, ip });
  if (written.size > 10_000) written.delete(written.keys().next().value!);
  await recordAccessTokenUse(rt.db, id, ip);
}
