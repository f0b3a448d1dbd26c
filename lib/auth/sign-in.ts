import 'server-only';
import { countPasskeys } from '@/db/queries/passkeys';
import { insertChallenge } from '@/db/queries/second-factor';
import type { UserRow } from '@/db/schema';
import type { Env } from '../env';
import type { Runtime } from '../runtime';
import { randomToken, sha256Hex } from './crypto';
import { createMemberSession, type SignInClient } from './sessions';

export type { SignInClient } from './sessions';

export const CHALLENGE_MS = 5 * 60 * 1000;
export const CHALLENGE_TRIES = 5;

/** How the first step was passed: recorded on the session (Settings → Sessions). */
export type SignInMethod = 'password' | 'oidc' | 'passkey';

/**
 * A session carries the account's row: the HTTP side answers it through toUserDto
 * (lib/users/user-dto.ts), never as it is (the row holds the password hash).
 */
export type SignInResult =
  | { kind: 'session'; role: 'admin' | 'member'; account: UserRow; token: string; expiresAt: Date }
  | { kind: 'second_factor'; secondFactor: 'required' | 'enroll'; challenge: string; expiresAt: Date };

/** Whether REQUIRE_2FA asks this account for a second factor. */
export function mustHaveSecondFactor(env: Pick<Env, 'require2fa'>, user: Pick<UserRow, 'role'>): boolean {
  return env.require2fa === 'all' || (env.require2fa === 'admins' && user.role === 'admin');
}

/**
 * The one way a member's sign-in ends, whatever its first step (password, OpenID Connect,
 * passkey; each calls this once the user is known and active): with a second factor enrolled
 * — or required by REQUIRE_2FA and not yet enrolled — no session, but a challenge (5 minutes, 5
 * tries) for POST /api/auth/login/second-factor or for enrolment through /api/auth/totp/setup
 * and /enable; otherwise the session. A passkey sign-in (user verification required) is itself
 * a second factor and passes `secondFactorDone`.
 */
export async function finishSignIn(
  rt: Runtime,
  user: UserRow,
  method: SignInMethod,
  client: SignInClient,
  opts: { secondFactorDone?: boolean } = {},
): Promise<SignInResult> {
  if (!opts.secondFactorDone) {
    // Under REQUIRE_2FA a passkey counts as the enrolled second factor (it passes the challenge).
    const step = user.totpEnabled ? 'required' : mustHaveSecondFactor(rt.env, user) ? ((await countPasskeys(rt.db, user.id)) > 0 ? 'required' : 'enroll') : null;
    if (step) {
      const challenge = randomToken();
      const expiresAt = new Date(Date.now() + CHALLENGE_MS);
      await insertChallenge(rt.db, { tokenHash: sha256Hex(challenge), userId: user.id, kind: step, method, expiresAt });
      return { kind: 'second_factor', secondFactor: step, challenge, expiresAt };
    }
  }
  return issueSession(rt, user, method, client);
}

/** The session at the end of a sign-in (its method says which factors were used). */
export async function issueSession(rt: Runtime, user: UserRow, method: string, client: SignInClient): Promise<Extract<SignInResult, { kind: 'session' }>> {
  const s = await createMemberSession(rt, user.id, client, method);
  return { kind: 'session', role: user.role, account: user, token: s.token, expiresAt: s.expiresAt };
}
