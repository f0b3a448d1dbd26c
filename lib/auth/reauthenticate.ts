import 'server-only';
import { findLiveSession } from '@/db/queries/sessions';
import { AppError, badRequest } from '../errors';
import type { Runtime } from '../runtime';
import type { Principal } from './principal';
import { enforceAddressAndAccount } from './rate-limit';
import { assertCurrentPassword } from './current-password';

/** How recent a single sign-on stands in for the password of an account that has none. */
export const RECENT_SSO_MS = 10 * 60 * 1000;

/**
 * A change that would hand the account to whoever holds this session (the e-mail: where its
 * mail goes) asks again who is there (issue 42, item 3): the current password — 401
 * wrong_password, counted per address and per account with TOTP setup and disable and the
 * password change, so a stolen session cannot guess it. An account made by single sign-on has
 * no password to ask for: there, this session must be a single sign-on of the last 10 minutes
 * (403 with `reauthenticate: "oidc"` otherwise: sign in again with the provider). The password
 * change itself has nothing to offer such an account either (there is no current password).
 */
export async function assertReauthenticated(rt: Runtime, principal: Extract<Principal, { kind: 'user' }>, currentPassword: string | undefined, ip: string, what: string): Promise<void> {
  const user = principal.user;
  if (user.passwordHash === '') {
    const found = await findLiveSession(rt.db, principal.tokenHash);
    const s = found?.session;
    if (s && s.method.startsWith('oidc') && Date.now() - s.createdAt.getTime() <= RECENT_SSO_MS) return;
    throw new AppError('forbidden', `This account has no password: sign in again with single sign-on, then ${what} within 10 minutes`, {}, { reauthenticate: 'oidc' });
  }
  if (currentPassword === undefined) throw badRequest(`current_password is required to ${what}`);
  await enforceAddressAndAccount(rt, 'totp', ip, user.id);
  await assertCurrentPassword(rt, user.id, currentPassword, ip);
}
