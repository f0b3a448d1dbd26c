import 'server-only';
import { deleteUserAccessTokens } from '@/db/queries/access-tokens';
import { deleteUserSessions } from '@/db/queries/sessions';
import { findUserById, updateUser } from '@/db/queries/users';
import type { UpdateUserInput } from '../contract/users';
import { notFound } from '../errors';
import { hashPassword } from '../auth/passwords';
import type { Runtime } from '../runtime';
import { tryReserveConfirmation, sendConfirmation, unconfirmed } from './email-confirmation';
import { isUuid } from '../is-uuid';
import { toUserDto, type UserDto } from './user-dto';

/**
 * Administrator edit. A disabled user's sessions are ended at once, not only refused; a password
 * reset ends their sessions and their access tokens (an intruder's `htmls_pat_…` with them). An
 * address the administrator sets is unconfirmed too, with its confirmation mail (when the
 * limits allow; else the member sends it from /files).
 */
export async function updateAccount(rt: Runtime, id: string, input: UpdateUserInput, by: string): Promise<UserDto> {
  if (!isUuid(id)) throw notFound('No such user');
  const current = input.email === undefined ? null : await findUserById(rt.db, id);
  if (input.email !== undefined && !current) throw notFound('No such user');
  const changed = current !== null && input.email !== current.email;
  const confirmation = changed && input.email ? await tryReserveConfirmation(rt, id, input.email) : null;
  const row = await updateUser(rt.db, id, {
    ...(changed ? (confirmation?.fields ?? unconfirmed) : {}),
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
    quotaBytes: input.quota_bytes,
    status: input.status,
    role: input.role,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password, by),
  });
  if (!row) throw notFound('No such user');
  if (changed) sendConfirmation(rt, row.email, confirmation, row.locale);
  if (input.status === 'disabled' || input.password !== undefined) await deleteUserSessions(rt.db, id);
  if (input.password !== undefined) await deleteUserAccessTokens(rt.db, id);
  return toUserDto(row);
}
