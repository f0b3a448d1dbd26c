import 'server-only';
import { endOtherSessions } from '@/db/queries/second-factor';
import { updateUser } from '@/db/queries/users';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { hashPassword } from './passwords';
import type { Principal } from './principal';
import { enforceAddressAndAccount } from './rate-limit';
import { assertCurrentPassword } from './current-password';

/**
 * POST /api/auth/password: a member's own new password, only with the current one; every other
 * session of theirs ends (the one asking stays signed in).
 */
export async function changeOwnPassword(rt: Runtime, principal: Principal | null, input: { current_password: string; password: string }, ip: string): Promise<void> {
  if (principal?.kind !== 'user') throw new AppError('forbidden', 'This is for member accounts, not the Admin Token');
  const userId = principal.user.id;
  await enforceAddressAndAccount(rt, 'totp', ip, userId);
  await assertCurrentPassword(rt, userId, input.current_password, ip);
  const passwordHash = await hashPassword(input.password, `user:${userId}`);
  await updateUser(rt.db, userId, { passwordHash });
  await rt.db.transaction(async (tx) => endOtherSessions(tx, userId, principal.tokenHash));
}
