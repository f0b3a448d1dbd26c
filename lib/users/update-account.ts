import 'server-only';
import { deleteUserAccessTokens } from '@/db/queries/access-tokens';
import { deleteUserSessions } from '@/db/queries/sessions';
import { updateUser } from '@/db/queries/users';
import type { UpdateUserInput } from '../contract/users';
import { notFound } from '../errors';
import { hashPassword } from '../auth/passwords';
import type { Runtime } from '../runtime';
import { isUuid } from './is-uuid';
import { toUserDto, type UserDto } from './user-dto';

/**
 * Administrator edit. A disabled user's sessions are ended at once, not only refused; a password
 * reset ends their sessions and their access tokens (an intruder's `htmls_pat_…` with them).
 */
export async function updateAccount(rt: Runtime, id: string, input: UpdateUserInput, by: string): Promise<UserDto> {
  if (!isUuid(id)) throw notFound('No such user');
  const row = await updateUser(rt.db, id, {
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
    quotaBytes: input.quota_bytes,
    status: input.status,
    role: input.role,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password, by),
  });
  if (!row) throw notFound('No such user');
  if (input.status === 'disabled' || input.password !== undefined) await deleteUserSessions(rt.db, id);
  if (input.password !== undefined) await deleteUserAccessTokens(rt.db, id);
  return toUserDto(row);
}
