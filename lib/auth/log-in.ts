import 'server-only';
import { findUserByUsername, replacePasswordHash } from '@/db/queries/users';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { isAdminToken } from './admin-credential';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';
import { createAdminSession, type SignInClient } from './sessions';
import { finishSignIn, type SignInResult } from './sign-in';

/** An Admin Token session, or a member's sign-in (a session, or the second factor it waits for). */
export type LogInResult = { kind: 'admin'; role: 'admin'; token: string; expiresAt: Date } | SignInResult;

const invalid = () => new AppError('unauthenticated', 'invalid credentials');

/** Admin Token, or username and password; failures never say which part was wrong. */
export async function logIn(
  rt: Runtime,
  input: { token?: string; username?: string; password?: string },
  /** The client's address (its share of the password-checking lane) and user agent. */
  client: SignInClient,
): Promise<LogInResult> {
  const ip = client.ip;
  if (input.token !== undefined) {
    if ((await isAdminToken(rt, input.token)) !== true) throw invalid();
    const s = await createAdminSession(rt, client);
    return { kind: 'admin', role: 'admin', token: s.token, expiresAt: s.expiresAt };
  }
  const username = input.username ?? '';
  const password = input.password ?? '';
  const user = username.length <= 64 ? await findUserByUsername(rt.db, username) : null;
  // An account made by single sign-on has no password (an empty hash): checked as long as any other.
  const ok: boolean = user?.passwordHash ? await verifyPassword(password, user.passwordHash, ip) : await verifyAgainstDummy(password, ip);
  // A disabled account answers its right password as a wrong one (issue 39, info): an
  // `account_disabled` for the right one only let its password be probed while disabled.
  if (!user || ok !== true || user.status !== 'active') throw invalid();
  // Made at another cost than the one set now: stored again at this one, so the member's sign-in
  // takes as long as one for a name that does not exist. Best effort: a failure here (the hash
  // queue full) leaves the old hash, which still works, and the sign-in goes on.
  if (needsRehash(user.passwordHash)) {
    await hashPassword(password, `user:${user.id}`)
      .then((next) => replacePasswordHash(rt.db, user.id, user.passwordHash, next))
      .catch(() => {});
  }
  return finishSignIn(rt, user, 'password', client);
}
