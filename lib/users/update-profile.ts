import 'server-only';
import { findUserById, updateUser } from '@/db/queries/users';
import type { OwnProfileInput } from '../contract/users';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { reserveConfirmation, sendConfirmation, unconfirmed } from './email-confirmation';
import { toUserDto, type UserDto } from './user-dto';

/**
 * A member's own display name, email, phone, notifications and language. A new address is unconfirmed and gets one
 * confirmation mail; past the confirmation limits the change is refused (429) before anything
 * is stored, so the member can try again rather than hold an address nobody can confirm.
 */
export async function updateProfile(rt: Runtime, userId: string, input: Omit<OwnProfileInput, 'current_password'>): Promise<UserDto> {
  const current = await findUserById(rt.db, userId);
  if (!current) throw notFound('No such user');
  const changed = input.email !== undefined && input.email !== current.email;
  const confirmation = changed && input.email ? await reserveConfirmation(rt, userId, input.email) : null;
  const row = await updateUser(rt.db, userId, {
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
    notifyDownloads: input.notify?.downloads,
    notifyUploads: input.notify?.uploads,
    notifyExpiring: input.notify?.expiring,
    locale: input.locale,
    ...(changed ? (confirmation?.fields ?? unconfirmed) : {}),
  });
  if (!row) throw notFound('No such user');
  if (changed) sendConfirmation(rt, row.email, confirmation, row.locale);
  return toUserDto(row);
}
