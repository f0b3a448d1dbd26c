import 'server-only';
import {
  endSessionByHash,
  findLiveSession,
  insertSession,
  sessionIssued,
} from '@/db/queries/sessions';
import type { Runtime } from '../runtime';
import { adminCredentialTag } from './admin-credential';
import { randomToken, sha256Hex } from './crypto';
import { networkOf } from './network';
import type { Principal } from './principal';

const DAY = 24 * 3600 * 1000;
const MEMBER_SESSION_MS = 30 * DAY;
const ADMIN_SESSION_MS = 7 * DAY;

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/** Who signs in, as Settings → Sessions shows it: the address's network and the user agent. */
export interface SignInClient {
  ip: string;
  userAgent: string;
}

const about = (client?: SignInClient, method = 'password') => ({
  method,
  userAgent: (client?.userAgent ?? '').slice(0, 512),
  network: client ? networkOf(client.ip) : '',
});

export async function createAdminSession(rt: Runtime, client?: SignInClient): Promise<IssuedSession> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ADMIN_SESSION_MS);
  await insertSession(rt.db, {
    tokenHash: sha256Hex(token),
    kind: 'admin',
    userId: null,
    credentialTag: await adminCredentialTag(rt),
    expiresAt,
    ...about(client, 'admin_token'),
  });
  return { token, expiresAt };
}

/**
 * A member session. Sign-ins go through finishSignIn (lib/auth/sign-in.ts), which decides first
 * whether a second factor stands between the first step and this.
 */
export async function createMemberSession(rt: Runtime, userId: string, client?: SignInClient, method = 'password'): Promise<IssuedSession> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + MEMBER_SESSION_MS);
  await insertSession(rt.db, { tokenHash: sha256Hex(token), kind: 'member', userId, credentialTag: null, expiresAt, ...about(client, method) });
  return { token, expiresAt };
}

/**
 * Resolves a session token (cookie or Bearer). Disabled users and admin sessions opened under
 * an older Admin Token resolve to nothing. (The Admin Token itself as a Bearer is the guards'
 * to accept: lib/http/guards.ts.)
 */
export async function resolveToken(rt: Runtime, token: string): Promise<Principal | null> {
  if (!token || token.length > 512) return null;
  return (await loadSession(rt, sha256Hex(token)))?.principal ?? null;
}

/** A live session's principal and when the session ends; null when the hash grants nothing. */
export async function loadSession(rt: Runtime, tokenHash: string): Promise<{ principal: Principal; expiresAt: Date } | null> {
  const row = await findLiveSession(rt.db, tokenHash);
  if (!row) return null;
  const { expiresAt } = row.session;
  if (row.session.kind === 'admin') {
    if (row.session.userId === null && row.session.credentialTag === (await adminCredentialTag(rt))) {
      return { principal: { kind: 'admin', user: null, via: 'session', tokenHash }, expiresAt };
    }
    return null;
  }
  if (row.user && row.user.status === 'active') return { principal: { kind: 'user', user: row.user, tokenHash }, expiresAt };
  return null;
}

/** A token of a session this server issued that no longer grants anything: not a guess. */
export async function isStaleSession(rt: Runtime, token: string): Promise<boolean> {
  return token.length <= 512 && (await sessionIssued(rt.db, sha256Hex(token)));
}

export async function revokeSession(rt: Runtime, token: string): Promise<void> {
  await endSessionByHash(rt.db, sha256Hex(token));
}
