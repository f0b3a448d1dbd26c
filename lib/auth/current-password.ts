import 'server-only';
import { findUserById } from '@/db/queries/users';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { verifyPassword } from './passwords';

/**
 * 401 wrong_password unless `password` is the account's current one: checked, awaited and
 * compared to `true` (CVE-2026-49467 was a check whose promise was never awaited).
 */
export async function assertCurrentPassword(rt: Runtime, userId: string, password: unknown, ip: string): Promise<void> {
  const user = await findUserById(rt.db, userId);
  if (!user) throw new AppError('unauthenticated', 'This sign-in has expired; sign in again');
  const ok: boolean = typeof password === 'string' && password.length > 0 && (await verifyPassword(password, user.passwordHash, ip)) === true;
  if (ok !== true) throw new AppError('wrong_password', 'The current password is not right');
}
