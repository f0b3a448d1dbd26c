import 'server-only';
import { deleteAdminSessionTokens } from '@/db/queries/access-tokens';
import { deleteAdminSessions } from '@/db/queries/sessions';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { storeAdminToken } from './admin-credential';
import { createAdminSession, type IssuedSession } from './sessions';
import { forgetUnlockKey } from './unlock-cookie';
import { weakTokenReason } from './weak-token';

export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * Stores the new token's hash (it then wins over ADMIN_TOKEN), ends every admin session
 * opened under the old one (and the access tokens made in them) and opens a fresh one for the caller. Guest unlock cookies are
 * keyed on the credential too, so they lapse with it.
 */
export async function changeAdminToken(rt: Runtime, token: string): Promise<IssuedSession> {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new AppError('token_too_short', `The Admin Token needs at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  }
  const weak = weakTokenReason(token);
  if (weak) throw new AppError('token_too_weak', `This Admin Token is easy to guess: ${weak}`);
  await storeAdminToken(rt, token);
  await deleteAdminSessions(rt.db);
  // Access tokens made in Admin Token sessions end with it too (their credential tag no longer
  // matches either; deleting them keeps the list honest).
  await deleteAdminSessionTokens(rt.db);
  forgetUnlockKey(rt);
  return createAdminSession(rt);
}
