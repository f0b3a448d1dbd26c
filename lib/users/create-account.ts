import 'server-only';
import { insertUser, setEmailToken } from '@/db/queries/users';
import type { CreateUserInput, RegisterInput } from '../contract/users';
import { AppError } from '../errors';
import { hashPassword } from '../auth/passwords';
import type { Runtime } from '../runtime';
import { getDefaultQuota } from './default-quota';
import { sendConfirmation, tryReserveConfirmation } from './email-confirmation';
import { toUserDto, type UserDto } from './user-dto';

/** Registration, or an administrator's "create user" (which may also set role and quota). */
export async function createAccount(
  rt: Runtime,
  input: RegisterInput & Partial<Pick<CreateUserInput, 'role' | 'quota_bytes'>>,
  /** Who sets the password: the administrator (setterKey), or the registering address. */
  by: string,
  /**
   * The language of the sign-up's confirmation mail: the registering browser's (a new member
   * has no setting yet); an administrator's "create user" leaves it to the server's default.
   */
  mailLocale: string | null = null,
): Promise<UserDto> {
  const row = await insertUser(rt.db, {
    username: input.username,
    passwordHash: await hashPassword(input.password, by),
    displayName: input.display_name ?? '',
    email: input.email ?? '',
    phone: input.phone ?? '',
    role: input.role ?? 'member',
    quotaBytes: input.quota_bytes ?? (await getDefaultQuota(rt)),
  });
  if (!row) throw new AppError('username_taken', 'That username is taken');
  // An address given at sign-up is unconfirmed (the column's default) and gets its link.
  if (row.email) {
    const confirmation = await tryReserveConfirmation(rt, row.id, row.email);
    if (confirmation && (await setEmailToken(rt.db, row.id, row.email, confirmation.fields))) sendConfirmation(rt, row.email, confirmation, row.locale ?? mailLocale);
  }
  return toUserDto(row);
}
