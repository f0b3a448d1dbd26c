import 'server-only';
import { pageUsers } from '@/db/queries/lists';
import type { ListQuery } from '../contract/lists';
import { encodeCursor, pageQueryOf } from '../lists/page-cursor';
import type { Runtime } from '../runtime';
import { toUserDto, type UserDto } from './user-dto';

/** GET /api/users: a page of users, newest first. */
export async function listAccounts(rt: Runtime, query: ListQuery): Promise<{ users: UserDto[]; next_cursor: string | null }> {
  const page = await pageUsers(rt.db, pageQueryOf(query, true));
  return { users: page.rows.map((r) => toUserDto(r.user)), next_cursor: encodeCursor(page.next) };
}
