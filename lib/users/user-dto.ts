import 'server-only';
import type { UserRow } from '@/db/schema';

export interface UserDto {
  id: string;
  username: string;
  display_name: string;
  email: string;
  phone: string;
  role: 'member' | 'admin';
  status: 'active' | 'disabled';
  quota_bytes: number;
  used_bytes: number;
  created_at: string;
}

/** The only shape a user leaves the server in: never the password hash. */
export function toUserDto(u: UserRow): UserDto {
  return {
    id: u.id,
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    phone: u.phone,
    role: u.role,
    status: u.status,
    quota_bytes: Number(u.quotaBytes),
    used_bytes: Number(u.usedBytes),
    created_at: u.createdAt.toISOString(),
  };
}
