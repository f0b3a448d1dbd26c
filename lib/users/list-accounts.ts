import 'server-only';
import { listUsers } from '@/db/queries/users';
import type { Runtime } from '../runtime';
import { toUserDto, type UserDto } from './user-dto';

export async function listAccounts(rt: Runtime): Promise<UserDto[]> {
  return (await listUsers(rt.db)).map(toUserDto);
}
