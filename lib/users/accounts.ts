import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import { getSetting, setSetting, SETTING } from '@/db/queries/settings';
import { scheduleDeletion } from '@/db/queries/storage-gc';
import { deleteUserSessions } from '@/db/queries/sessions';
import { findUserById, insertUser, listUsers, updateUser } from '@/db/queries/users';
import { shareGroups, users } from '@/db/schema';
import type { CreateUserInput, ProfileInput, RegisterInput, UpdateUserInput } from '../contract/users';
import { AppError, notFound } from '../errors';
import { hashPassword } from '../auth/passwords';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { sharedGroupPrefix } from '../storage/keys';
import { toUserDto, type UserDto } from './user-dto';

/** 50 MB (binary), the spec's default for new registrations. */
export const DEFAULT_QUOTA_BYTES = 50 * 1024 * 1024;

export async function getDefaultQuota(rt: Runtime): Promise<number> {
  const v = await getSetting(rt.db, SETTING.defaultQuotaBytes);
  const n = v === null ? NaN : Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : DEFAULT_QUOTA_BYTES;
}

/** Only new accounts take the new default; existing users keep their quota. */
export async function setDefaultQuota(rt: Runtime, bytes: number): Promise<number> {
  await setSetting(rt.db, SETTING.defaultQuotaBytes, String(bytes));
  return bytes;
}

const taken = () => new AppError('username_taken', 'That username is taken');

export async function createAccount(
  rt: Runtime,
  input: RegisterInput & Partial<Pick<CreateUserInput, 'role' | 'quota_bytes'>>,
): Promise<UserDto> {
  const row = await insertUser(rt.db, {
    username: input.username,
    passwordHash: await hashPassword(input.password),
    displayName: input.display_name ?? '',
    email: input.email ?? '',
    phone: input.phone ?? '',
    role: input.role ?? 'member',
    quotaBytes: input.quota_bytes ?? (await getDefaultQuota(rt)),
  });
  if (!row) throw taken();
  return toUserDto(row);
}

export async function updateProfile(rt: Runtime, userId: string, input: ProfileInput): Promise<UserDto> {
  const row = await updateUser(rt.db, userId, {
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
  });
  if (!row) throw notFound('No such user');
  return toUserDto(row);
}

export async function listAccounts(rt: Runtime): Promise<UserDto[]> {
  return (await listUsers(rt.db)).map(toUserDto);
}

/** Administrator edit. A disabled user's sessions are ended at once, not only refused. */
export async function updateAccount(rt: Runtime, id: string, input: UpdateUserInput): Promise<UserDto> {
  if (!isUuid(id) || !(await findUserById(rt.db, id))) throw notFound('No such user');
  const row = await updateUser(rt.db, id, {
    displayName: input.display_name,
    email: input.email,
    phone: input.phone,
    quotaBytes: input.quota_bytes,
    status: input.status,
    role: input.role,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password),
  });
  if (!row) throw notFound('No such user');
  if (input.status === 'disabled' || input.password !== undefined) await deleteUserSessions(rt.db, id);
  return toUserDto(row);
}

/**
 * Deletes a user with everything they own. One transaction records the deletion of every
 * share's bytes (storage_gc rows) and drops the records — shares, items, pending uploads,
 * sessions (cascade), the user — so a crash at any point leaves either everything or a
 * janitor job that finishes the bytes. The bytes go right after the commit.
 */
export async function deleteAccount(rt: Runtime, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound('No such user');
  const gcIds = await rt.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    if (!user) throw notFound('No such user');
    const groups = await tx.select({ id: shareGroups.id }).from(shareGroups).where(eq(shareGroups.userId, id)).for('update');
    const ids = await scheduleDeletion(tx, groups.map((g) => sharedGroupPrefix(g.id)));
    if (groups.length) await tx.delete(shareGroups).where(inArray(shareGroups.id, groups.map((g) => g.id)));
    await tx.delete(users).where(eq(users.id, id));
    return ids;
  });
  await runDeletions(rt, gcIds);
}

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
