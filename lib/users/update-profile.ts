import 'server-only';
import { updateUser } from '@/db/queries/users';
import type { ProfileInput } from '../contract/users';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { toUserDto, type UserDto } from './user-dto';

/** A member's own display name, email and phone. */
export async function updateProfile(rt: Runtime, userId: string, input: ProfileInput): Promise<UserDto> {
  const row = await updateUser(rt.db, userId, {
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
    notifyDownloads: input.notify?.downloads,
    notifyUploads: input.notify?.uploads,
    notifyExpiring: input.notify?.expiring,
  });
  if (!row) throw notFound('No such user');
  return toUserDto(row);
}
